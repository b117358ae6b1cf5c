/**
 * Contract: code anchors (core/anchors/anchor.ts) and the withheld part of the injection ledger. Every
 * backend stores a memory's anchor set with its row, keeps the last check of each file anchor as a
 * cache, drops the set when the memory is forgotten or its text changes, lets a backfill fill only what
 * is pending, audits a re-verification, and carries anchors through export and import unchanged.
 */
import { describe, expect } from 'vitest';

import type { Anchor, AnchorCheck, FileAnchor } from '../../core/anchors/anchor.js';
import type { MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';
import { expectCode } from './store.crud.contract.js';

const COMMIT = 'a'.repeat(40);

function file(path: string, patch: Partial<FileAnchor> = {}): FileAnchor {
  return {
    kind: 'file',
    path,
    citedAs: null,
    blobId: 'b'.repeat(40),
    size: 12,
    commit: COMMIT,
    source: 'worktree',
    symbols: ['openPool'],
    ...patch,
  };
}

const MENTION: Anchor = { kind: 'mention', path: 'scripts/pg.sh', why: 'missing' };

function check(memoryId: string, path: string, patch: Partial<AnchorCheck> = {}): AnchorCheck {
  return {
    memoryId,
    path,
    checkedAt: '2025-06-01T09:00:00.000Z',
    signature: '12:1:1:1',
    head: COMMIT,
    verdict: {
      state: 'changed',
      commits: 2,
      commitsAgo: 1,
      range: { from: COMMIT, to: 'c'.repeat(40) },
    },
    ...patch,
  };
}

async function anchored(store: MemoryStore, content: string, anchors: readonly Anchor[]) {
  const { memory } = await store.remember(
    { content, projectKey: PROJECT_A, origin: 'user' },
    { anchors: { how: 'write', anchors } },
  );
  return memory;
}

export function describeAnchorsContract(h: Harness): void {
  describe('code anchors', () => {
    h.test('stores a set with its memory, seeded checks included, and reads it back', async () => {
      const clock = new ManualClock('2025-06-01T08:00:00.000Z');
      const store = await h.open({ clock });
      const { memory } = await store.remember(
        { content: 'Pools open in src/db.ts', projectKey: PROJECT_A, origin: 'user' },
        {
          anchors: {
            how: 'write',
            anchors: [file('src/db.ts'), MENTION],
            checks: [
              {
                path: 'src/db.ts',
                checkedAt: '2025-06-01T08:00:00.000Z',
                signature: '12:1:1:1',
                head: COMMIT,
                verdict: { state: 'fresh' },
              },
            ],
          },
        },
      );
      const plain = await store.remember({ content: 'no citations', projectKey: PROJECT_A });
      const sets = await store.getAnchorSets([memory.id, plain.memory.id, memory.id]);
      expect([...sets.keys()]).toEqual([memory.id]);
      expect(sets.get(memory.id)).toEqual({
        memoryId: memory.id,
        how: 'write',
        resolvedAt: '2025-06-01T08:00:00.000Z',
        anchors: [file('src/db.ts'), MENTION],
        checks: [
          {
            memoryId: memory.id,
            path: 'src/db.ts',
            checkedAt: '2025-06-01T08:00:00.000Z',
            signature: '12:1:1:1',
            head: COMMIT,
            verdict: { state: 'fresh' },
          },
        ],
      });
      expect(await store.getAnchorSets([])).toEqual(new Map());
    });

    h.test('keeps the existing set when the same text arrives again', async () => {
      const store = await h.open();
      const first = await anchored(store, 'Pools open in src/db.ts', [file('src/db.ts')]);
      const { memory, created } = await store.remember(
        { content: 'Pools open in src/db.ts', projectKey: PROJECT_A, origin: 'user' },
        { anchors: { how: 'write', anchors: [file('src/db.ts', { blobId: 'd'.repeat(40) })] } },
      );
      expect({ created, id: memory.id }).toEqual({ created: false, id: first.id });
      expect((await store.getAnchorSets([first.id])).get(first.id)?.anchors).toEqual([
        file('src/db.ts'),
      ]);
    });

    h.test('gives a replacement its own set; the replaced memory keeps its own', async () => {
      const store = await h.open();
      const old = await anchored(store, 'Pools open in src/db.ts', [file('src/db.ts')]);
      const { current } = await store.supersede(
        old.id,
        { content: 'Pools open in src/store/db.ts', projectKey: PROJECT_A, origin: 'user' },
        { anchors: { how: 'write', anchors: [file('src/store/db.ts')] } },
      );
      const sets = await store.getAnchorSets([old.id, current.id]);
      expect(sets.get(old.id)?.anchors).toEqual([file('src/db.ts')]);
      expect(sets.get(current.id)?.anchors).toEqual([file('src/store/db.ts')]);
    });

    h.test(
      'drops the set when the text changes or the memory is forgotten, not on a tag change',
      async () => {
        const store = await h.open();
        const a = await anchored(store, 'Pools open in src/db.ts', [file('src/db.ts')]);
        const b = await anchored(store, 'Carts total in src/cart.ts', [file('src/cart.ts')]);
        await store.updateMemory(a.id, { tags: ['db'] });
        expect((await store.getAnchorSets([a.id])).has(a.id)).toBe(true);
        await store.updateMemory(a.id, { content: 'Pools open elsewhere now' });
        expect((await store.getAnchorSets([a.id])).has(a.id)).toBe(false);
        await store.forget(b.id);
        expect(await store.getAnchorSets([b.id])).toEqual(new Map());
        const revived = await anchored(store, 'Carts total in src/cart.ts', [MENTION]);
        expect((await store.getAnchorSets([revived.id])).get(revived.id)?.anchors).toEqual([
          MENTION,
        ]);
      },
    );

    h.test('lets a backfill fill only pending memories, and audits a re-verification', async () => {
      const store = await h.open();
      const written = await anchored(store, 'Pools open in src/db.ts', [file('src/db.ts')]);
      const { memory: pending } = await store.remember({
        content: 'legacy src/a.ts',
        projectKey: PROJECT_A,
      });
      const trail = await store.auditTrail(pending.id);
      const saved = await store.saveAnchorSets([
        {
          memoryId: pending.id,
          action: 'backfill',
          set: { how: 'backfill', anchors: [file('src/a.ts')] },
        },
        { memoryId: written.id, action: 'backfill', set: { how: 'backfill', anchors: [] } },
      ]);
      expect(saved.map((set) => [set.memoryId, set.how])).toEqual([
        [pending.id, 'backfill'],
        [written.id, 'write'],
      ]);
      expect(await store.auditTrail(pending.id)).toEqual(trail);
      const [after] = await store.saveAnchorSets([
        {
          memoryId: written.id,
          action: 'reverify',
          detail: { actor: 'cli', origin: 'user' },
          set: { how: 'reverify', anchors: [file('src/store/db.ts', { citedAs: 'src/db.ts' })] },
        },
      ]);
      expect(after).toMatchObject({
        how: 'reverify',
        anchors: [{ path: 'src/store/db.ts', citedAs: 'src/db.ts' }],
        checks: [],
      });
      expect((await store.auditTrail(written.id)).at(-1)).toMatchObject({
        action: 'reverify',
        detail: { actor: 'cli', origin: 'user', anchors: 1, mentions: 0 },
      });
    });

    h.test('writes nothing of a batch that names an unknown memory', async () => {
      const store = await h.open();
      const { memory } = await store.remember({
        content: 'legacy src/a.ts',
        projectKey: PROJECT_A,
      });
      await expectCode(
        store.saveAnchorSets([
          { memoryId: memory.id, action: 'backfill', set: { how: 'backfill', anchors: [] } },
          {
            memoryId: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
            action: 'backfill',
            set: { how: 'backfill', anchors: [] },
          },
        ]),
        'NOT_FOUND',
      );
      expect(await store.getAnchorSets([memory.id])).toEqual(new Map());
    });

    h.test(
      'caches checks on file anchors, replaces older ones, and ignores anchors that are gone',
      async () => {
        const store = await h.open();
        const memory = await anchored(store, 'Pools in src/db.ts and scripts/pg.sh', [
          file('src/db.ts'),
          MENTION,
        ]);
        await store.recordAnchorChecks([
          check(memory.id, 'src/db.ts', { verdict: { state: 'fresh' } }),
        ]);
        await store.recordAnchorChecks([
          check(memory.id, 'src/db.ts'),
          check(memory.id, 'scripts/pg.sh'),
          check(memory.id, 'src/never.ts'),
          check('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'src/db.ts'),
        ]);
        expect((await store.getAnchorSets([memory.id])).get(memory.id)?.checks).toEqual([
          check(memory.id, 'src/db.ts'),
        ]);
      },
    );

    h.test('refuses malformed sets and checks with INVALID_INPUT, storing nothing', async () => {
      const store = await h.open();
      const bad: Anchor[][] = [
        [file('/etc/passwd')],
        [file('../outside.ts')],
        [file('src/a.ts'), file('src/a.ts')],
        [file('src/a.ts', { blobId: 'not-hex' })],
        [file('src/a.ts', { symbols: ['x'.repeat(300)] })],
        [{ kind: 'mention', path: 'a/b.ts', why: 'because' } as unknown as Anchor],
      ];
      for (const anchors of bad) {
        await expectCode(
          store.remember(
            { content: `bad ${anchors.length}`, projectKey: PROJECT_A },
            { anchors: { how: 'write', anchors } },
          ),
          'INVALID_INPUT',
        );
      }
      expect(await store.countMemories()).toBe(0);
      const memory = await anchored(store, 'Pools in src/db.ts', [file('src/db.ts')]);
      await expectCode(
        store.recordAnchorChecks([
          check(memory.id, 'src/db.ts', { verdict: { state: 'weird' } as never }),
        ]),
        'INVALID_INPUT',
      );
    });

    h.test('exports a set without its cache and imports it verbatim', async () => {
      const clock = new ManualClock('2025-06-01T08:00:00.000Z');
      const source = await h.open({ clock });
      const memory = await anchored(source, 'Pools open in src/db.ts', [
        file('src/db.ts'),
        MENTION,
      ]);
      await source.recordAnchorChecks([check(memory.id, 'src/db.ts')]);
      const records = [];
      for await (const record of source.exportMemories()) records.push(record);
      expect(records[0]?.anchors).toEqual({
        how: 'write',
        resolvedAt: '2025-06-01T08:00:00.000Z',
        anchors: [file('src/db.ts'), MENTION],
      });
      const target = await h.open({ clock: new ManualClock('2026-01-01T00:00:00.000Z') });
      for (const record of records) expect(await target.importMemory(record)).toBe('imported');
      const again = [];
      for await (const record of target.exportMemories()) again.push(record);
      expect(again).toEqual(records);
      expect((await target.getAnchorSets([memory.id])).get(memory.id)?.checks).toEqual([]);
    });
  });

  describe('withheld in the injection ledger', () => {
    h.test(
      'records a row that only withholds, and refuses one that neither injects nor withholds',
      async () => {
        const store = await h.open();
        const memory = await anchored(store, 'Pools open in src/db.ts', [file('src/db.ts')]);
        const row = await store.recordInjection({
          sessionId: 's1',
          event: 'session-start',
          source: 'startup',
          projectKey: PROJECT_A,
          memoryIds: [],
          tokens: 0,
          withheld: [{ id: memory.id, reasons: ['cited_files_deleted'] }],
        });
        expect(row).toMatchObject({
          memoryIds: [],
          withheld: [{ id: memory.id, reasons: ['cited_files_deleted'] }],
        });
        expect(await store.listInjections({ limit: 5 })).toEqual([row]);
        expect(await store.injectedIds('s1')).toEqual([]);
        const empty = {
          sessionId: 's1',
          event: 'session-start' as const,
          source: null,
          projectKey: null,
          tokens: 0,
        };
        await expectCode(store.recordInjection({ ...empty, memoryIds: [] }), 'INVALID_INPUT');
        await expectCode(
          store.recordInjection({
            ...empty,
            memoryIds: [],
            withheld: [{ id: 'nope', reasons: ['x'] }],
          }),
          'INVALID_INPUT',
        );
        await expectCode(
          store.recordInjection({
            ...empty,
            memoryIds: [],
            withheld: [{ id: memory.id, reasons: [] }],
          }),
          'INVALID_INPUT',
        );
      },
    );
  });
}
