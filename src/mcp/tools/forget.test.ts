import { describe, expect, it } from 'vitest';

import { seedMemory, textOf, useMcpHarness } from '../../../test/helpers/mcp-harness.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';

const connect = useMcpHarness();
const tempDir = useTempDirs();

describe('forget tool', () => {
  it('deletes an agent memory of the project', async () => {
    const h = await connect();
    const memory = await seedMemory(h.app, {
      content: 'obsolete',
      projectKey: h.project,
      origin: 'agent',
    });
    const result = await h.call('forget', { id: memory.id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: memory.id, forgotten: true });
    expect(await h.app.store.getMemory(memory.id)).toBeUndefined();
  });

  it('refuses to delete what the user wrote or a global memory, naming the command the user can run', async () => {
    const h = await connect();
    const mine = await seedMemory(h.app, { content: 'user fact', projectKey: h.project });
    const user = await h.call('forget', { id: mine.id });
    expect(user.isError).toBe(true);
    expect(textOf(user)).toBe(
      `Memory ${mine.id} is written by the user; only the user can delete it. Ask them to run \`mnemo forget ${mine.id}\`, or use supersede_memory to correct it.`,
    );
    const global = await seedMemory(h.app, {
      content: 'global fact',
      projectKey: h.project,
      origin: 'agent',
      visibility: 'global',
    });
    expect(textOf(await h.call('forget', { id: global.id }))).toContain('is global; only the user');
    expect(await h.app.store.countMemories()).toBe(2);
  });

  it("answers NOT_FOUND for another project's memory and leaves it intact", async () => {
    const h = await connect();
    const theirs = await seedMemory(h.app, {
      content: 'theirs',
      projectKey: tempDir(),
      origin: 'agent',
    });
    const result = await h.call('forget', { id: theirs.id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`No memory ${theirs.id}`);
    expect(await h.app.store.getMemory(theirs.id)).toBeDefined();
  });
});
