/**
 * Contract: the context field (the text around a memory when it was captured) and recall's lexical
 * scoring over it, the store's term statistics, and extra vectors beside a memory's sentence vector.
 */
import { describe, expect } from 'vitest';

import type { NewMemory } from '../../core/memory.js';
import type { MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { PROJECT_A, PROJECT_B, vectorOf } from './fixtures.js';

const SESSION = 'session-context-1';

async function capture(
  store: MemoryStore,
  content: string,
  extra: Partial<NewMemory> = {},
): Promise<string> {
  const { memory } = await store.remember({
    content,
    projectKey: PROJECT_A,
    origin: 'local_exec',
    sessionId: SESSION,
    ...extra,
  });
  return memory.id;
}

export function describeContextContract(h: Harness): void {
  describe('context', () => {
    h.test(
      'derives a capture’s context from its session neighbours, one line per position, two before and two after',
      async () => {
        const store = await h.open();
        const error = await capture(store, 'npm test failed: ECONNRESET talking to the registry');
        const fix = await capture(store, 'Set the proxy in .npmrc; npm test passes');
        const edit = await capture(store, 'Edited .npmrc: proxy=http://proxy.internal:3128');
        const later = await capture(store, 'Ran the build again');
        const elsewhere = await capture(store, 'Other project note', { projectKey: PROJECT_B });
        const get = async (id: string) => (await store.getMemory(id))!.context;
        // Lines: the second and the first before, then the first and the second after; a missing
        // neighbour is an empty line, trailing empty lines are dropped.
        expect(await get(error)).toBe(
          '\n\nSet the proxy in .npmrc; npm test passes\nEdited .npmrc: proxy=http://proxy.internal:3128',
        );
        expect(await get(fix)).toBe(
          '\nnpm test failed: ECONNRESET talking to the registry\nEdited .npmrc: proxy=http://proxy.internal:3128\nRan the build again',
        );
        expect(await get(edit)).toBe(
          'npm test failed: ECONNRESET talking to the registry\nSet the proxy in .npmrc; npm test passes\nRan the build again',
        );
        expect(await get(later)).toBe(
          'Set the proxy in .npmrc; npm test passes\nEdited .npmrc: proxy=http://proxy.internal:3128',
        );
        // A neighbour's own line breaks stay on its line, so every line keeps its position.
        const multi = await capture(store, 'npm run build failed:\n  TS2345 in src/app.ts');
        expect(await get(later)).toBe(
          'Set the proxy in .npmrc; npm test passes\nEdited .npmrc: proxy=http://proxy.internal:3128\nnpm run build failed: TS2345 in src/app.ts',
        );
        expect(await get(edit)).toBe(
          'npm test failed: ECONNRESET talking to the registry\nSet the proxy in .npmrc; npm test passes\nRan the build again\nnpm run build failed: TS2345 in src/app.ts',
        );
        expect(await get(multi)).toBe(
          'Edited .npmrc: proxy=http://proxy.internal:3128\nRan the build again',
        );
        expect(await get(elsewhere)).toBe('');
        const plain = await store.remember({ content: 'No session here', projectKey: PROJECT_A });
        expect(plain.memory.context).toBe('');
      },
    );

    h.test(
      'finds a memory through its context, ranked below the memory whose own text matches',
      async () => {
        const store = await h.open();
        const error = await capture(store, 'vitest crashed with ECONNRESET in the proxy tests');
        const fix = await capture(store, 'Pinned undici to 6.19; the suite is green again');
        const later = await capture(store, 'unrelated afterwards');
        const hits = await store.searchLexical('ECONNRESET', { limit: 10 });
        // The error's own text holds the word; the fix and the next capture hold it in their context.
        expect(hits[0]!.id).toBe(error);
        expect(
          hits
            .slice(1)
            .map((hit) => hit.id)
            .sort(),
        ).toEqual([fix, later].sort());
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        // The weight reaches the index: without the context field the fix is not found at all.
        const bodyOnly = await store.searchLexical('ECONNRESET', {
          limit: 10,
          bm25f: { k1: 0.9, b: 0.2, weights: { body: 1, context: 0 } },
        });
        expect(bodyOnly.map((hit) => hit.id)).toEqual([error]);
      },
    );

    h.test(
      'gives and takes no context across an untrusted or rejected memory (fail closed)',
      async () => {
        const store = await h.open();
        const before = await capture(store, 'Benchmarked the cache: 40 ms p95');
        const fetched = await capture(store, 'Blog says: disable the cache entirely', {
          origin: 'network',
          originTool: 'WebFetch',
        });
        const after = await capture(store, 'Kept the cache, raised the TTL to 10 minutes');
        expect((await store.getMemory(fetched))!.context).toBe('');
        expect((await store.getMemory(before))!.context).toBe(
          '\n\nKept the cache, raised the TTL to 10 minutes',
        );
        expect((await store.getMemory(after))!.context).toBe('\nBenchmarked the cache: 40 ms p95');
        await store.setQuarantine(after, 'rejected', 'cli');
        expect((await store.getMemory(before))!.context).toBe('');
        expect((await store.getMemory(after))!.context).toBe('');
      },
    );

    h.test('takes a forgotten or edited memory’s text out of its neighbours’ context', async () => {
      const store = await h.open();
      const a = await capture(store, 'Decided to drop Redis for sessions');
      const secret = await capture(store, 'Wrote down the staging password hunter2 by mistake');
      const c = await capture(store, 'Sessions now live in Postgres');
      expect((await store.getMemory(a))!.context).toContain('hunter2');
      expect(await store.forget(secret)).toBe(true);
      expect((await store.getMemory(a))!.context).toBe('\n\nSessions now live in Postgres');
      expect((await store.getMemory(c))!.context).toBe('\nDecided to drop Redis for sessions');
      expect(await store.searchLexical('hunter2', { limit: 10 })).toEqual([]);
      await store.updateMemory(c, { content: 'Sessions now live in Postgres, table sessions' });
      expect((await store.getMemory(a))!.context).toBe(
        '\n\nSessions now live in Postgres, table sessions',
      );
      expect(await h.options.inspect(store)).toMatchObject({ problems: [] });
    });

    h.test('exports and imports the context verbatim', async () => {
      const source = await h.open();
      await capture(source, 'first');
      await capture(source, 'second');
      const exported = [];
      for await (const record of source.exportMemories()) exported.push(record);
      const target = await h.open();
      for (const record of exported) await target.importMemory(record);
      const reimported = [];
      for await (const record of target.exportMemories()) reimported.push(record);
      expect(reimported.map((m) => m.context)).toEqual(['\n\nsecond', '\nfirst']);
      expect((await target.searchLexical('second', { limit: 5 })).length).toBe(2);
    });
  });

  describe('term statistics', () => {
    h.test('counts analysed terms in memories’ own text, not their context', async () => {
      const store = await h.open();
      await capture(store, 'deploy deploy the service');
      await capture(store, 'rollback the service');
      const { total, counts } = await store.termCounts(['deploy', 'servic', 'rollback', 'absent']);
      expect(Object.fromEntries(counts)).toEqual({ deploy: 2, servic: 2, rollback: 1 });
      expect(total).toBe(7);
    });
  });

  describe('extra vectors', () => {
    h.test(
      'keeps one vector per model beside the sentence vector, each listed and searched on its own',
      async () => {
        const store = await h.open();
        const { memory } = await store.remember(
          { content: 'two vectors', projectKey: PROJECT_A },
          { vector: vectorOf('sentence', [1, 0]) },
        );
        const other = (await store.remember({ content: 'none yet', projectKey: PROJECT_A })).memory;
        expect((await store.listUnembedded('words-v1', 10)).map((m) => m.id)).toEqual([
          memory.id,
          other.id,
        ]);
        await store.setExtraVector(memory.id, vectorOf('words-v1', [0, 1, 0]));
        expect((await store.getMemory(memory.id))!.embeddingModel).toBe('sentence');
        expect((await store.listUnembedded('words-v1', 10)).map((m) => m.id)).toEqual([other.id]);
        expect((await store.listUnembedded('sentence', 10)).map((m) => m.id)).toEqual([other.id]);
        const near = await store.searchVector(vectorOf('words-v1', [0, 1, 0]), { limit: 5 });
        expect(near.map((h) => h.id)).toEqual([memory.id]);
        expect(await store.deleteVectorModel('words-v1')).toBe(1);
        expect(await store.searchVector(vectorOf('words-v1', [0, 1, 0]), { limit: 5 })).toEqual([]);
        expect((await store.searchVector(vectorOf('sentence', [1, 0]), { limit: 5 }))[0]?.id).toBe(
          memory.id,
        );
        await store.setExtraVector(memory.id, vectorOf('words-v2', [1, 1]));
        await store.forget(memory.id);
        expect((await h.options.inspect(store)).vectorRows).toBe(0);
      },
    );

    h.test('keeps the state of a store-derived model', async () => {
      const store = await h.open();
      expect(await store.getModelState('words')).toBeUndefined();
      await store.setModelState('words', { model: 'words-1', docs: 3 });
      await store.setModelState('words', { model: 'words-2', docs: 9 });
      expect(await store.getModelState('words')).toEqual({ model: 'words-2', docs: 9 });
    });
  });
}
