import { describe, expect, it } from 'vitest';

import { seedMemory, textOf, useMcpHarness } from '../../../test/helpers/mcp-harness.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';

const connect = useMcpHarness();
const tempDir = useTempDirs();

interface ListOut {
  total: number;
  offset: number;
  next_offset: number | null;
  memories: { id: string }[];
}
const out = (result: { structuredContent?: unknown }): ListOut =>
  result.structuredContent as ListOut;

describe('list_memories tool', () => {
  it("pages through the project's memories newest first", async () => {
    const h = await connect();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await seedMemory(h.app, { content: `memory number ${i}`, projectKey: h.project })).id,
      );
    }
    await seedMemory(h.app, { content: 'elsewhere', projectKey: tempDir() });
    const first = await h.call('list_memories', { limit: 2 });
    expect(out(first)).toMatchObject({ total: 5, offset: 0, next_offset: 2 });
    expect(out(first).memories.map((m) => m.id)).toEqual([ids[4], ids[3]]);
    expect(textOf(first)).toContain('3 more: call again with offset 2.');
    const last = out(await h.call('list_memories', { limit: 2, offset: 4 }));
    expect(last).toMatchObject({ total: 5, offset: 4, next_offset: null });
    expect(last.memories.map((m) => m.id)).toEqual([ids[0]]);
  });

  it('filters by kind, tag, origin and review state', async () => {
    const h = await connect();
    const decision = await seedMemory(h.app, {
      content: 'we chose sqlite',
      projectKey: h.project,
      kind: 'decision',
      tags: ['db'],
    });
    const pending = await seedMemory(h.app, {
      content: 'fetched claim',
      projectKey: h.project,
      origin: 'agent_tainted',
      tainted: true,
      quarantine: 'pending',
    });
    await seedMemory(h.app, { content: 'plain note', projectKey: h.project, origin: 'agent' });
    const ids = async (args: Record<string, unknown>) =>
      out(await h.call('list_memories', args)).memories.map((m) => m.id);
    expect(await ids({ kinds: ['decision'] })).toEqual([decision.id]);
    expect(await ids({ tags: ['db'] })).toEqual([decision.id]);
    expect(await ids({ origins: ['agent_tainted'] })).toEqual([pending.id]);
    expect(await ids({ quarantine: 'pending' })).toEqual([pending.id]);
    expect(await ids({ quarantine: 'reviewed' })).not.toContain(pending.id);
  });

  it('leaves replaced memories out unless asked', async () => {
    const h = await connect();
    const old = await seedMemory(h.app, { content: 'use npm', projectKey: h.project });
    const { current } = await h.app.store.supersede(old.id, {
      content: 'use pnpm',
      projectKey: h.project,
      origin: 'user',
    });
    expect(out(await h.call('list_memories')).memories.map((m) => m.id)).toEqual([current.id]);
    const all = out(await h.call('list_memories', { include_superseded: true }));
    expect(all.memories.map((m) => m.id).sort()).toEqual([old.id, current.id].sort());
  });

  it('says so when nothing matches', async () => {
    const h = await connect();
    const result = await h.call('list_memories', { kinds: ['fix'] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('No memories match these filters (0 in total, offset 0).');
  });

  it('refuses a page size or an offset out of range', async () => {
    const h = await connect();
    const big = await h.call('list_memories', { limit: 101 });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toContain('limit must be at most 100');
    const negative = await h.call('list_memories', { offset: -1 });
    expect(textOf(negative)).toContain('offset must be at least 0');
    const origin = await h.call('list_memories', { origins: ['root'] });
    expect(origin.isError).toBe(true);
  });
});
