/**
 * Contract: browsing a store without loading it — the source fields of a memory (source URL and its
 * host), the filters by tool, session, page and site that review and purge by, group sizes, and the heat
 * inputs of warm memories.
 */
import { describe, expect } from 'vitest';

import type { MemoryGroupField, MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A, PROJECT_B } from './fixtures.js';
import { expectCode } from './store.crud.contract.js';

const DAY_MS = 86_400_000;

/** Six memories across two projects, two days, three tools, two sessions and three pages. */
async function seed(store: MemoryStore, clock: ManualClock): Promise<string[]> {
  const ids: string[] = [];
  const put = async (fields: Parameters<MemoryStore['remember']>[0]) => {
    ids.push((await store.remember(fields)).memory.id);
  };
  await put({
    content: 'Fetched the docs home page',
    projectKey: PROJECT_A,
    origin: 'network',
    originTool: 'WebFetch',
    sessionId: 's1',
    sourceUrl: 'https://docs.example.com/',
  });
  await put({
    content: 'Fetched the docs guide',
    projectKey: PROJECT_A,
    origin: 'network',
    originTool: 'WebFetch',
    sessionId: 's1',
    sourceUrl: 'https://docs.example.com/guide',
  });
  await put({
    content: 'Fetched the apex site',
    projectKey: PROJECT_A,
    origin: 'network',
    originTool: 'WebFetch',
    sessionId: 's2',
    sourceUrl: 'https://example.com/',
  });
  clock.advance(DAY_MS);
  await put({
    content: 'Fetched a look-alike site',
    projectKey: PROJECT_A,
    origin: 'network',
    originTool: 'mcp__fetch__fetch',
    sessionId: 's2',
    sourceUrl: 'https://notexample.com/',
  });
  await put({
    content: 'An edit in project A',
    projectKey: PROJECT_A,
    origin: 'local_edit',
    originTool: 'Edit',
    sessionId: 's2',
  });
  await put({ content: 'A note in project B', projectKey: PROJECT_B, origin: 'user' });
  return ids;
}

export function describeBrowseContract(h: Harness): void {
  describe('browse', () => {
    h.test('keeps the source URL of a memory through get, list and export', async () => {
      const store = await h.open();
      const { memory } = await store.remember({
        content: 'Fetched the guide',
        projectKey: PROJECT_A,
        origin: 'network',
        sourceUrl: 'https://docs.example.com/guide',
      });
      expect(memory.sourceUrl).toBe('https://docs.example.com/guide');
      expect((await store.getMemory(memory.id))?.sourceUrl).toBe('https://docs.example.com/guide');
      const exported = [];
      for await (const record of store.exportMemories()) exported.push(record);
      expect(exported[0]?.sourceUrl).toBe('https://docs.example.com/guide');
      const plain = await store.remember({ content: 'typed', projectKey: PROJECT_A });
      expect(plain.memory.sourceUrl).toBeNull();
      await expectCode(
        store.remember({
          content: 'a page with a query',
          projectKey: PROJECT_A,
          sourceUrl: 'https://example.com/x?token=1',
        }),
        'INVALID_INPUT',
      );
    });

    h.test('filters by tool, session, exact page and site (subdomains included)', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const ids = await seed(store, clock);
      const list = async (filter: Parameters<MemoryStore['listMemories']>[0]) =>
        (await store.listMemories(filter)).map((m) => ids.indexOf(m.id)).sort();
      expect(await list({ limit: 50, originTools: ['WebFetch'] })).toEqual([0, 1, 2]);
      expect(await list({ limit: 50, sessionIds: ['s2'] })).toEqual([2, 3, 4]);
      expect(await list({ limit: 50, sourceUrls: ['https://docs.example.com/guide'] })).toEqual([
        1,
      ]);
      // A suffix without the dot (notexample.com) is another site.
      expect(await list({ limit: 50, sourceDomains: ['example.com'] })).toEqual([0, 1, 2]);
      expect(await list({ limit: 50, sourceDomains: ['docs.example.com'] })).toEqual([0, 1]);
      expect(await list({ limit: 50, sourceDomains: ['%', '_xample.com'] })).toEqual([]);
      expect(
        await list({ limit: 50, sessionIds: ['s2'], sourceDomains: ['notexample.com'] }),
      ).toEqual([3]);
      // An empty list matches nothing, never everything.
      expect(await list({ limit: 50, originTools: [] })).toEqual([]);
      expect(await store.countMemories({ sourceDomains: ['example.com'] })).toBe(3);
    });

    h.test('counts groups by each field, largest first, nulls last, without content', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      await seed(store, clock);
      const groups = (by: MemoryGroupField) => store.countMemoryGroups({}, { by, limit: 10 });
      expect(await groups('originTool')).toEqual([
        { key: 'WebFetch', count: 3 },
        { key: 'Edit', count: 1 },
        { key: 'mcp__fetch__fetch', count: 1 },
        { key: null, count: 1 },
      ]);
      expect(await groups('sourceHost')).toEqual([
        { key: 'docs.example.com', count: 2 },
        { key: null, count: 2 },
        { key: 'example.com', count: 1 },
        { key: 'notexample.com', count: 1 },
      ]);
      expect(await groups('projectKey')).toEqual([
        { key: PROJECT_A, count: 5 },
        { key: PROJECT_B, count: 1 },
      ]);
      expect((await groups('sessionId')).map((g) => g.key)).toEqual(['s2', 's1', null]);
      expect((await groups('sourceUrl'))[0]).toEqual({ key: null, count: 2 });
      expect((await groups('origin'))[0]).toEqual({ key: 'network', count: 4 });
      expect(await groups('kind')).toEqual([{ key: 'note', count: 6 }]);
      expect(
        await store.countMemoryGroups({ quarantine: ['pending'] }, { by: 'origin', limit: 1 }),
      ).toEqual([{ key: 'network', count: 4 }]);
      await expectCode(
        store.countMemoryGroups({}, { by: 'content' as MemoryGroupField, limit: 5 }),
        'INVALID_INPUT',
      );
    });

    h.test('splits groups per UTC day of creation, inside the filter', async () => {
      const clock = new ManualClock('2025-03-01T23:30:00.000Z');
      const store = await h.open({ clock });
      await seed(store, clock);
      const rows = await store.countMemoryGroups(
        { scope: { projectKey: PROJECT_A, includeGlobal: true } },
        { by: 'origin', perDay: true, limit: 50 },
      );
      expect(rows).toEqual([
        { key: 'network', day: '2025-03-01', count: 3 },
        { key: 'local_edit', day: '2025-03-02', count: 1 },
        { key: 'network', day: '2025-03-02', count: 1 },
      ]);
    });

    h.test('limits reads across every project to what their reader may see', async () => {
      const store = await h.open({ author: { user: 'dana', host: 'dana-laptop' } });
      const put = async (content: string, extra: Record<string, unknown>) =>
        (
          await store.remember({
            content,
            projectKey: PROJECT_A,
            origin: 'network',
            originTool: 'WebFetch',
            sourceUrl: 'https://docs.example.com/',
            heatBase: 1,
            ...extra,
          })
        ).memory.id;
      const mine = await put('a page dana fetched', {});
      const shared = await put('a page dana shared', { teamVisible: true, projectKey: PROJECT_B });
      const all = { quarantine: ['pending'] as const };
      const ids = async (reader?: string) =>
        (await store.listMemories({ ...all, limit: 50, ...(reader ? { reader } : {}) }))
          .map((m) => m.id)
          .sort();
      // Unscoped and without a reader: every memory (administrative views).
      expect(await ids()).toEqual([mine, shared].sort());
      expect(await ids('dana')).toEqual([mine, shared].sort());
      // Another author sees the shared one only, on every browsing read.
      expect(await ids('erin')).toEqual([shared]);
      const erin = { ...all, reader: 'erin' };
      expect(await store.countMemories(erin)).toBe(1);
      expect(await store.countMemoryGroups(erin, { by: 'sourceHost', limit: 5 })).toEqual([
        { key: 'docs.example.com', count: 1 },
      ]);
      expect((await store.listHeat(erin, { limit: 5 })).map((r) => r.id)).toEqual([shared]);
      // A scope's own reader wins over `reader`.
      const inA = { projectKey: PROJECT_A, includeGlobal: true, author: 'dana' };
      expect(
        (await store.listMemories({ ...erin, scope: inA, limit: 50 })).map((m) => m.id),
      ).toEqual([mine]);
    });

    h.test('lists the heat inputs of warm memories only, in id order, page by page', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const warm: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const { memory } = await store.remember({
          content: `memory number ${i}`,
          projectKey: i === 4 ? PROJECT_B : PROJECT_A,
          origin: 'user',
          heatBase: i === 0 ? 0 : i,
        });
        if (i > 0) warm.push(memory.id);
      }
      const first = await store.listHeat({}, { limit: 2 });
      expect(first.map((r) => r.id)).toEqual(warm.slice(0, 2));
      expect(Object.keys(first[0]!).sort()).toEqual(
        ['createdAt', 'heatBase', 'id', 'lastAccessedAt', 'updatedAt'].sort(),
      );
      expect(first[0]).toMatchObject({ heatBase: 1, lastAccessedAt: null });
      const rest = await store.listHeat({}, { afterId: first[1]!.id, limit: 10 });
      expect(rest.map((r) => r.id)).toEqual(warm.slice(2));
      const inA = await store.listHeat(
        { scope: { projectKey: PROJECT_A, includeGlobal: false } },
        { limit: 10 },
      );
      expect(inA.map((r) => r.id)).toEqual(warm.slice(0, 3));
    });
  });
}
