/**
 * Contract: the injection ledger (which memories were pushed into which session, at what token cost)
 * and the `pinned` filter that session start reads pinned memories with. Injecting is not using: no
 * ledger write may touch a memory's access count, last access or heat.
 */
import { describe, expect } from 'vitest';

import type { MemoryStore, NewInjection } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';
import { expectCode } from './store.crud.contract.js';

const MINUTE = 60_000;
const ID_1 = '01JFX000000000000000000001';
const ID_2 = '01JFX000000000000000000002';
const ID_3 = '01JFX000000000000000000003';

function entry(patch: Partial<NewInjection> = {}): NewInjection {
  return {
    sessionId: 's1',
    event: 'session-start',
    source: 'startup',
    projectKey: PROJECT_A,
    memoryIds: [ID_1, ID_2],
    tokens: 120,
    ...patch,
  };
}

async function seed(store: MemoryStore, contents: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const content of contents) {
    const { memory } = await store.remember({ content, projectKey: PROJECT_A, origin: 'user' });
    ids.push(memory.id);
  }
  return ids;
}

export function describeInjectionsContract(h: Harness): void {
  describe('injection ledger', () => {
    h.test(
      'records an injection and reads it back with its time, event, source and ids',
      async () => {
        const clock = new ManualClock('2025-06-01T09:00:00.000Z');
        const store = await h.open({ clock });
        const recorded = await store.recordInjection(entry());
        const expected = {
          ...entry(),
          memoryIds: [ID_1, ID_2],
          indexIds: [],
          withheld: [],
          author: null,
          at: '2025-06-01T09:00:00.000Z',
          seq: recorded.seq,
        };
        expect(recorded).toEqual(expected);
        expect(await store.listInjections({ limit: 10 })).toEqual([expected]);
        const prompt = await store.recordInjection(
          entry({ event: 'prompt-recall', source: null, projectKey: null, memoryIds: [ID_3] }),
        );
        expect(prompt).toMatchObject({ event: 'prompt-recall', source: null, projectKey: null });
        expect(prompt.seq).toBeGreaterThan(recorded.seq);
      },
    );

    h.test('lists newest first, filtered by session and by time, within the limit', async () => {
      const clock = new ManualClock('2025-06-01T09:00:00.000Z');
      const store = await h.open({ clock });
      await store.recordInjection(entry({ sessionId: 's1', memoryIds: [ID_1] }));
      clock.advance(MINUTE);
      await store.recordInjection(entry({ sessionId: 's2', memoryIds: [ID_2] }));
      clock.advance(MINUTE);
      await store.recordInjection(entry({ sessionId: 's1', memoryIds: [ID_3] }));
      const ids = (rows: { memoryIds: string[] }[]) => rows.map((r) => r.memoryIds[0]);
      expect(ids(await store.listInjections({ limit: 10 }))).toEqual([ID_3, ID_2, ID_1]);
      expect(ids(await store.listInjections({ limit: 2 }))).toEqual([ID_3, ID_2]);
      expect(ids(await store.listInjections({ sessionId: 's1', limit: 10 }))).toEqual([ID_3, ID_1]);
      expect(ids(await store.listInjections({ since: '2025-06-01T09:01:00Z', limit: 10 }))).toEqual(
        [ID_3, ID_2],
      );
      expect(await store.listInjections({ sessionId: 'never-seen', limit: 10 })).toEqual([]);
      expect(await store.listInjections({ limit: 0 })).toEqual([]);
      await expectCode(store.listInjections({ since: 'yesterday', limit: 10 }), 'INVALID_INPUT');
    });

    h.test('returns each id injected into a session once, first injected first', async () => {
      const store = await h.open();
      await store.recordInjection(entry({ memoryIds: [ID_2, ID_1] }));
      await store.recordInjection(entry({ sessionId: 'other', memoryIds: [ID_3] }));
      await store.recordInjection(
        entry({ event: 'prompt-recall', source: null, memoryIds: [ID_3, ID_1] }),
      );
      expect(await store.injectedIds('s1')).toEqual([ID_2, ID_1, ID_3]);
      expect(await store.injectedIds('other')).toEqual([ID_3]);
      expect(await store.injectedIds('never-seen')).toEqual([]);
    });

    h.test(
      'tells ids shown only as index entries from ids read in full, until a later row shows them whole',
      async () => {
        const store = await h.open();
        const recorded = await store.recordInjection(
          entry({
            event: 'prompt-recall',
            source: null,
            memoryIds: [ID_1, ID_2],
            indexIds: [ID_2],
          }),
        );
        expect(recorded.indexIds).toEqual([ID_2]);
        expect((await store.listInjections({ limit: 1 }))[0]?.indexIds).toEqual([ID_2]);
        expect(await store.injectedIds('s1')).toEqual([ID_1]);
        expect(await store.indexedIds('s1')).toEqual([ID_2]);
        await store.recordInjection(
          entry({ event: 'prompt-recall', source: null, memoryIds: [ID_3], indexIds: [ID_3] }),
        );
        expect(await store.indexedIds('s1')).toEqual([ID_2, ID_3]);
        // Read in full later: no longer only pointed at, and still never counted twice.
        await store.recordInjection(
          entry({ event: 'prompt-recall', source: null, memoryIds: [ID_2] }),
        );
        expect(await store.injectedIds('s1')).toEqual([ID_1, ID_2]);
        expect(await store.indexedIds('s1')).toEqual([ID_3]);
        expect(await store.indexedIds('other')).toEqual([]);
        // A row without index entries records none.
        expect((await store.recordInjection(entry({ sessionId: 'other' }))).indexIds).toEqual([]);
      },
    );

    h.test(
      'refuses index entries that are not among the injected ids, repeated, or not ids',
      async () => {
        const store = await h.open();
        const bad: Partial<NewInjection>[] = [
          { memoryIds: [ID_1], indexIds: [ID_2] },
          { memoryIds: [], indexIds: [ID_1], withheld: [{ id: ID_1, reasons: ['tainted'] }] },
          { memoryIds: [ID_1], indexIds: [ID_1, ID_1] },
          { memoryIds: [ID_1], indexIds: ['not-a-ulid'] },
          { memoryIds: [ID_1], indexIds: 'ID' as unknown as string[] },
        ];
        for (const patch of bad) {
          await expectCode(store.recordInjection(entry(patch)), 'INVALID_INPUT');
        }
        expect(await store.listInjections({ limit: 10 })).toEqual([]);
      },
    );

    h.test(
      'does not count an injection as an access: count, last access and heat stay',
      async () => {
        const clock = new ManualClock('2025-06-01T09:00:00.000Z');
        const store = await h.open({ clock });
        const ids = await seed(store, ['Deploy with just deploy.', 'Tests need dist/ built.']);
        const before = await store.getMemories(ids);
        clock.advance(60 * MINUTE);
        await store.recordInjection(entry({ memoryIds: ids }));
        await store.recordInjection(
          entry({ event: 'prompt-recall', source: null, memoryIds: ids }),
        );
        expect(await store.getMemories(ids)).toEqual(before);
        expect(before.map((m) => [m.accessCount, m.lastAccessedAt])).toEqual([
          [0, null],
          [0, null],
        ]);
      },
    );

    h.test(
      'refuses an entry without session, with an unknown event, bad ids or tokens',
      async () => {
        const store = await h.open();
        const bad: Partial<NewInjection>[] = [
          { sessionId: '' },
          { sessionId: '   ' },
          { event: 'subagent-start' as NewInjection['event'] },
          { memoryIds: [] },
          { memoryIds: ['not-a-ulid'] },
          { memoryIds: [ID_1.toLowerCase()] },
          { tokens: -1 },
          { tokens: 1.5 },
          { source: '' },
          { projectKey: '' },
        ];
        for (const patch of bad) {
          await expectCode(store.recordInjection(entry(patch)), 'INVALID_INPUT');
        }
        expect(await store.listInjections({ limit: 10 })).toEqual([]);
      },
    );

    h.test('leaves no ledger row when the transaction fails before commit', async () => {
      const store = await h.open({
        onBeforeCommit: (action) => {
          if (action === 'inject') throw new Error('injected fault');
        },
      });
      await expect(store.recordInjection(entry())).rejects.toThrow('injected fault');
      expect(await store.listInjections({ limit: 10 })).toEqual([]);
      expect(await store.injectedIds('s1')).toEqual([]);
    });
  });

  describe('pinned filter', () => {
    h.test('lists only pinned memories when asked, only unpinned ones with false', async () => {
      const store = await h.open();
      const [pinned, plain] = await seed(store, ['Pinned: always use pnpm.', 'A plain note.']);
      await store.updateMemory(pinned!, { pinned: true });
      const scope = { projectKey: PROJECT_A, includeGlobal: true };
      const list = async (value: boolean | undefined) =>
        (await store.listMemories({ scope, limit: 10, pinned: value })).map((m) => m.id);
      expect(await list(true)).toEqual([pinned]);
      expect(await list(false)).toEqual([plain]);
      expect((await list(undefined)).sort()).toEqual([pinned, plain].sort());
      expect(await store.countMemories({ scope, pinned: true })).toBe(1);
    });
  });
}
