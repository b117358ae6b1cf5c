import { describe, expect, it } from 'vitest';

import { seedMemory, textOf, useMcpHarness } from '../../../test/helpers/mcp-harness.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';

const connect = useMcpHarness();
const tempDir = useTempDirs();

describe('get_memory tool', () => {
  it('returns one memory framed, with its replacement links', async () => {
    const h = await connect();
    const old = await seedMemory(h.app, { content: 'use npm test', projectKey: h.project });
    const { current } = await h.app.store.supersede(old.id, {
      content: 'use pnpm test',
      projectKey: h.project,
      origin: 'user',
    });
    const result = await h.call('get_memory', { id: old.id.toLowerCase() });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('> use npm test');
    expect(textOf(result)).toContain(`It was replaced by ${current.id}; prefer that one.`);
    expect(result.structuredContent).toMatchObject({
      memory: { id: old.id, origin: 'user', flags: [`superseded-by:${current.id}`] },
      supersedes: null,
      superseded_by: current.id,
    });
  });

  it('answers a memory of another project exactly like an unknown id', async () => {
    const h = await connect();
    const theirs = await seedMemory(h.app, { content: 'secret plan', projectKey: tempDir() });
    const result = await h.call('get_memory', { id: theirs.id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `No memory ${theirs.id} in this project or among the global memories. Use recall or list_memories to find current ids.`,
    );
    const unknown = await h.call('get_memory', { id: '01JD5Y8Q3X9V7M2K4N6P8R0T2W' });
    expect(textOf(unknown)).toContain('No memory 01JD5Y8Q3X9V7M2K4N6P8R0T2W in this project');
  });

  it('shows a global memory from any project', async () => {
    const h = await connect();
    const global = await seedMemory(h.app, {
      content: 'always sign commits',
      projectKey: tempDir(),
      visibility: 'global',
    });
    const result = await h.call('get_memory', { id: global.id });
    expect(result.structuredContent).toMatchObject({
      memory: { id: global.id, flags: ['global'] },
    });
  });

  it('refuses an id that is not a ULID with a message saying what ids look like', async () => {
    const h = await connect();
    const result = await h.call('get_memory', { id: '../../etc/passwd' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Not a memory id: ids are 26-character ULIDs');
  });
});
