/**
 * Contract: lexical and vector search, scope isolation and filters.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';

import type { MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import {
  cosineDistance,
  deterministicVectors,
  HOSTILE_QUERIES,
  ManualClock,
  PROJECT_A,
  PROJECT_B,
  SAMPLE_MEMORIES,
  vectorOf,
} from './fixtures.js';

async function seed(store: MemoryStore): Promise<string[]> {
  const ids: string[] = [];
  for (const input of SAMPLE_MEMORIES) ids.push((await store.remember(input)).memory.id);
  return ids;
}

export function describeSearchContract(h: Harness): void {
  describe('searchLexical', () => {
    h.test('finds memories by their words and tags, best match first', async () => {
      const store = await h.open();
      const ids = await seed(store);
      const hits = await store.searchLexical('SQLITE_BUSY hooks', { limit: 10 });
      expect(hits[0]?.id).toBe(ids[2]);
      expect(hits.every((hit) => Number.isFinite(hit.score))).toBe(true);
      expect((await store.searchLexical('billing', { limit: 10 })).map((x) => x.id)).toEqual([
        ids[3],
      ]);
      const byTag = await store.searchLexical('concurrency', { limit: 10 });
      expect(byTag.map((x) => x.id)).toEqual([ids[2]]);
    });

    h.test('ranks a memory matching more query words higher', async () => {
      const store = await h.open();
      const one = await store.remember({
        content: 'alpha gamma filler words',
        projectKey: PROJECT_A,
      });
      const both = await store.remember({ content: 'alpha beta gamma', projectKey: PROJECT_A });
      const hits = await store.searchLexical('alpha beta', { limit: 10 });
      expect(hits.map((x) => x.id)).toEqual([both.memory.id, one.memory.id]);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    });

    h.test('treats operators and punctuation as plain words', async () => {
      const store = await h.open();
      const { memory } = await store.remember({
        content: 'NOT a near miss: the AND gate',
        projectKey: PROJECT_A,
      });
      for (const query of ['NOT', 'near', 'AND', '"gate"', 'gate*', '-miss', '(gate)']) {
        expect((await store.searchLexical(query, { limit: 5 })).map((x) => x.id)).toEqual([
          memory.id,
        ]);
      }
    });

    h.test('accepts every hostile query without throwing', async () => {
      const store = await h.open();
      await seed(store);
      for (const query of HOSTILE_QUERIES) {
        const hits = await store.searchLexical(query, { limit: 5 });
        expect(Array.isArray(hits)).toBe(true);
      }
      expect(await store.searchLexical('🎉 *** ()', { limit: 5 })).toEqual([]);
      expect(await store.searchLexical('', { limit: 5 })).toEqual([]);
    });

    h.test('accepts any string as a query (property)', async () => {
      const store = await h.open();
      await seed(store);
      const fragment = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom(
          '"',
          'NEAR(',
          ')',
          '*',
          '-',
          '^',
          ':',
          'AND',
          'OR',
          'NOT',
          '\u0000',
          '🎉',
          '{',
          '+',
        ),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fragment, { maxLength: 12 }), async (parts) => {
          const hits = await store.searchLexical(parts.join(' '), { limit: 5 });
          expect(hits.length).toBeLessThanOrEqual(5);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('searchVector', () => {
    const dims = 16;
    const corpus = deterministicVectors(120, dims, 7);
    const queries = deterministicVectors(8, dims, 99);

    h.test('returns the nearest by cosine, matching a brute-force scan', async () => {
      const store = await h.open();
      const ids: string[] = [];
      for (const [i, values] of corpus.entries()) {
        const { memory } = await store.remember(
          { content: `vector memory ${i}`, projectKey: PROJECT_A },
          { vector: vectorOf('test-model', values) },
        );
        ids.push(memory.id);
      }
      for (const query of queries) {
        const expected = corpus
          .map((values, i) => ({ id: ids[i]!, distance: cosineDistance(query, values) }))
          .sort((a, b) => a.distance - b.distance)
          .slice(0, 10);
        const hits = await store.searchVector(vectorOf('test-model', query), { limit: 10 });
        expect(hits.map((x) => x.id)).toEqual(expected.map((x) => x.id));
        hits.forEach((hit, i) => expect(hit.distance).toBeCloseTo(expected[i]!.distance, 5));
      }
    });

    h.test(
      'finds the nearest in-scope memories even when out-of-scope ones are nearer',
      async () => {
        const store = await h.open();
        const query = Float32Array.from({ length: dims }, (_, i) => (i === 0 ? 1 : 0));
        // 300 near neighbours in another project crowd any global top-k.
        for (let i = 0; i < 300; i += 1) {
          const values = Float32Array.from(query, (v, j) => v + (j === 1 ? i / 10_000 : 0));
          await store.remember(
            { content: `crowd ${i}`, projectKey: PROJECT_B },
            { vector: vectorOf('test-model', values) },
          );
        }
        const far = [] as { id: string; distance: number }[];
        for (const [i, values] of corpus.slice(0, 5).entries()) {
          const { memory } = await store.remember(
            { content: `mine ${i}`, projectKey: PROJECT_A },
            { vector: vectorOf('test-model', values) },
          );
          far.push({ id: memory.id, distance: cosineDistance(query, values) });
        }
        far.sort((a, b) => a.distance - b.distance);
        const hits = await store.searchVector(vectorOf('test-model', query), {
          limit: 3,
          scope: { projectKey: PROJECT_A, includeGlobal: false },
        });
        expect(hits.map((x) => x.id)).toEqual(far.slice(0, 3).map((x) => x.id));
      },
    );

    h.test('only compares vectors of the same model and dimension', async () => {
      const store = await h.open();
      await store.remember(
        { content: 'model one', projectKey: PROJECT_A },
        { vector: vectorOf('one', [1, 0]) },
      );
      const two = await store.remember(
        { content: 'model two', projectKey: PROJECT_A },
        { vector: vectorOf('two', [1, 0]) },
      );
      const hits = await store.searchVector(vectorOf('two', [1, 0]), { limit: 10 });
      expect(hits.map((x) => x.id)).toEqual([two.memory.id]);
      expect(await store.searchVector(vectorOf('two', [1, 0, 0]), { limit: 10 })).toEqual([]);
      expect(await store.searchVector(vectorOf('three', [1, 0]), { limit: 10 })).toEqual([]);
      expect(await store.searchVector(vectorOf('two', [0, 0]), { limit: 10 })).toEqual([]);
    });
  });

  describe('scope and filters', () => {
    h.test('never shows one project the memories of another', async () => {
      const store = await h.open();
      await seed(store);
      const a = { projectKey: PROJECT_A, includeGlobal: false };
      const listed = await store.listMemories({ limit: 50, scope: a });
      expect(listed.map((m) => m.projectKey)).toEqual([PROJECT_A, PROJECT_A, PROJECT_A]);
      expect(
        await store.searchLexical('billing STRIPE_WEBHOOK_SECRET', { limit: 5, scope: a }),
      ).toEqual([]);
      expect(await store.countMemories({ scope: a })).toBe(3);
    });

    h.test(
      'adds global memories only when includeGlobal, and shows only them without a project',
      async () => {
        const store = await h.open();
        const ids = await seed(store);
        const withGlobal = await store.listMemories({
          limit: 50,
          scope: { projectKey: PROJECT_A, includeGlobal: true },
        });
        expect(withGlobal.map((m) => m.id).sort()).toEqual([ids[0], ids[1], ids[2], ids[4]].sort());
        const noProject = await store.listMemories({
          limit: 50,
          scope: { projectKey: null, includeGlobal: true },
        });
        expect(noProject.map((m) => m.id)).toEqual([ids[4]]);
        expect(
          await store.countMemories({ scope: { projectKey: null, includeGlobal: false } }),
        ).toBe(1);
        expect(await store.countMemories({ scope: { projectKey: '', includeGlobal: false } })).toBe(
          0,
        );
        expect(await store.countMemories()).toBe(SAMPLE_MEMORIES.length);
      },
    );

    h.test('filters by kinds, every listed tag, origins and an inclusive time range', async () => {
      const clock = new ManualClock('2025-01-01T00:00:00.000Z');
      const store = await h.open({ clock });
      const ids: string[] = [];
      for (const input of SAMPLE_MEMORIES) {
        ids.push((await store.remember(input)).memory.id);
        clock.advance(24 * 3600_000);
      }
      const idsOf = async (filter: Parameters<MemoryStore['listMemories']>[0]) =>
        (await store.listMemories(filter)).map((m) => m.id).sort();
      expect(await idsOf({ limit: 50, kinds: ['fact'] })).toEqual([ids[0], ids[3]].sort());
      expect(await idsOf({ limit: 50, kinds: [] })).toEqual([]);
      expect(await idsOf({ limit: 50, tags: ['SQLite', 'concurrency'] })).toEqual([ids[2]]);
      expect(await idsOf({ limit: 50, tags: ['sqlite', 'billing'] })).toEqual([]);
      expect(await idsOf({ limit: 50, origins: ['agent', 'local_exec'] })).toEqual(
        [ids[2], ids[5]].sort(),
      );
      expect(await idsOf({ limit: 50, origins: [] })).toEqual([]);
      expect(
        await idsOf({
          limit: 50,
          createdAfter: '2025-01-02T00:00:00.000Z',
          createdBefore: '2025-01-04',
        }),
      ).toEqual([ids[1], ids[2], ids[3]].sort());
      expect(await store.countMemories({ kinds: ['fact'], origins: ['user'] })).toBe(2);
      const lexical = await store.searchLexical('the', { limit: 10, kinds: ['preference'] });
      expect(lexical.map((x) => x.id)).toEqual([]);
    });

    h.test('lists newest first with limit and offset', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        ids.push((await store.remember({ content: `n${i}`, projectKey: PROJECT_A })).memory.id);
        clock.advance(1000);
      }
      expect((await store.listMemories({ limit: 2 })).map((m) => m.id)).toEqual([ids[4], ids[3]]);
      expect((await store.listMemories({ limit: 2, offset: 2 })).map((m) => m.id)).toEqual([
        ids[2],
        ids[1],
      ]);
    });

    h.test(
      "lists a project's scope with global memories in one newest-first order, every page, ties by insertion",
      async () => {
        const clock = new ManualClock();
        const store = await h.open({ clock });
        // Project A, global and project B memories interleaved in time, some sharing a timestamp.
        const kept: string[] = [];
        for (let i = 0; i < 24; i += 1) {
          const where = i % 3;
          const { memory } = await store.remember({
            content: `interleaved note ${i}`,
            projectKey: where === 2 ? PROJECT_B : PROJECT_A,
            ...(where === 1 ? { visibility: 'global' as const } : {}),
          });
          if (where !== 2) kept.push(memory.id);
          if (i % 4 !== 3) clock.advance(1000);
        }
        const newestFirst = [...kept].reverse();
        const scope = { projectKey: PROJECT_A, includeGlobal: true };
        for (const [limit, offset] of [
          [50, 0],
          [5, 0],
          [5, 3],
          [4, 12],
          [3, 15],
          [10, 20],
        ] as const) {
          const page = await store.listMemories({ scope, limit, offset });
          expect(page.map((m) => m.id)).toEqual(newestFirst.slice(offset, offset + limit));
        }
        const onlyA = await store.listMemories({
          scope: { projectKey: PROJECT_A, includeGlobal: false },
          limit: 50,
        });
        expect(onlyA.every((m) => m.projectKey === PROJECT_A && m.visibility === 'project')).toBe(
          true,
        );
      },
    );

    h.test('excludes superseded memories from every read unless includeSuperseded', async () => {
      const store = await h.open();
      const old = await store.remember(
        { content: 'the queue is rabbitmq', projectKey: PROJECT_A },
        { vector: vectorOf('m', [1, 0]) },
      );
      const { current } = await store.supersede(
        old.memory.id,
        { content: 'the queue is kafka', projectKey: PROJECT_A },
        { vector: vectorOf('m', [0, 1]) },
      );
      const opts = { limit: 10 };
      const everything = { limit: 10, includeSuperseded: true };
      expect(await store.searchLexical('rabbitmq', opts)).toEqual([]);
      expect((await store.searchLexical('rabbitmq', everything)).map((x) => x.id)).toEqual([
        old.memory.id,
      ]);
      expect((await store.searchVector(vectorOf('m', [1, 0]), opts)).map((x) => x.id)).toEqual([
        current.id,
      ]);
      expect((await store.searchVector(vectorOf('m', [1, 0]), everything))[0]?.id).toBe(
        old.memory.id,
      );
      expect((await store.listMemories(opts)).map((m) => m.id)).toEqual([current.id]);
      expect(await store.countMemories()).toBe(1);
      expect(await store.countMemories({ includeSuperseded: true })).toBe(2);
    });
  });
}
