/**
 * Contract: the identifier/substring leg (`searchTerms`) and scoped `listUnembedded`, which hybrid recall
 * relies on. Exact code terms (`NODE_ENV`, `sqlite-store.ts`, `getUserById`) must be found as substrings,
 * case-insensitively, within the same scope and filters as every other read.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';

import type { Harness } from './contract-harness.js';
import { HOSTILE_QUERIES, PROJECT_A, PROJECT_B, vectorOf } from './fixtures.js';

const scopeA = { projectKey: PROJECT_A, includeGlobal: true };

export function describeTermsContract(h: Harness): void {
  describe('searchTerms', () => {
    h.test('finds exact code terms that the word index splits', async () => {
      const store = await h.open();
      const env = await store.remember({
        content: 'Set NODE_ENV=production before `npm run build`.',
        projectKey: PROJECT_A,
      });
      const path = await store.remember({
        content: 'The adapter lives in src/store/sqlite/sqlite-store.ts next to its schema.',
        projectKey: PROJECT_A,
      });
      const camel = await store.remember({
        content: 'getUserById caches for a minute; call it freely.',
        projectKey: PROJECT_A,
      });
      await store.remember({
        content: 'The node is down; check the env file.',
        projectKey: PROJECT_A,
      });
      const ids = async (terms: string[]) =>
        (await store.searchTerms(terms, { limit: 10, scope: scopeA })).map((hit) => hit.id);
      expect(await ids(['node_env'])).toEqual([env.memory.id]);
      expect(await ids(['sqlite-store.ts'])).toEqual([path.memory.id]);
      expect(await ids(['GETUSERBYID'])).toEqual([camel.memory.id]);
      expect(await ids(['userbyid'])).toEqual([camel.memory.id]);
    });

    h.test('ranks a memory matching more terms first, with finite scores', async () => {
      const store = await h.open();
      const one = await store.remember({ content: 'uses sqlite only', projectKey: PROJECT_A });
      const both = await store.remember({
        content: 'SqliteStore wraps sqlite with a store port',
        projectKey: PROJECT_A,
      });
      const hits = await store.searchTerms(['sqlitestore', 'sqlite', 'store'], {
        limit: 10,
        scope: scopeA,
      });
      expect(hits.map((hit) => hit.id)).toEqual([both.memory.id, one.memory.id]);
      expect(hits.every((hit) => Number.isFinite(hit.score))).toBe(true);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    });

    h.test('applies scope, filters, supersession and the limit like every read', async () => {
      const store = await h.open();
      const here = await store.remember({
        content: 'MNEMO_HOME here',
        projectKey: PROJECT_A,
        kind: 'fact',
      });
      const global = await store.remember({
        content: 'MNEMO_HOME global',
        projectKey: PROJECT_B,
        visibility: 'global',
      });
      await store.remember({ content: 'MNEMO_HOME in beta', projectKey: PROJECT_B });
      const old = await store.remember({ content: 'MNEMO_HOME old', projectKey: PROJECT_A });
      await store.supersede(old.memory.id, { content: 'replaced', projectKey: PROJECT_A });
      const search = (extra: object) =>
        store.searchTerms(['mnemo_home'], { limit: 10, scope: scopeA, ...extra });
      expect((await search({})).map((x) => x.id).sort()).toEqual(
        [here.memory.id, global.memory.id].sort(),
      );
      expect((await search({ kinds: ['fact'] })).map((x) => x.id)).toEqual([here.memory.id]);
      expect(await search({ limit: 1 })).toHaveLength(1);
      expect((await search({ includeSuperseded: true })).map((x) => x.id)).toContain(old.memory.id);
    });

    h.test('follows content edits and deletes', async () => {
      const store = await h.open();
      const { memory } = await store.remember({ content: 'uses FOO_BAR', projectKey: PROJECT_A });
      await store.updateMemory(memory.id, { content: 'uses BAZ_QUX' });
      expect(await store.searchTerms(['foo_bar'], { limit: 5 })).toEqual([]);
      expect((await store.searchTerms(['baz_qux'], { limit: 5 })).map((x) => x.id)).toEqual([
        memory.id,
      ]);
      await store.forget(memory.id);
      expect(await store.searchTerms(['baz_qux'], { limit: 5 })).toEqual([]);
    });

    h.test(
      'ignores terms shorter than 3 characters and returns [] for nothing usable',
      async () => {
        const store = await h.open();
        await store.remember({ content: 'an id of ab and xy', projectKey: PROJECT_A });
        expect(await store.searchTerms([], { limit: 5 })).toEqual([]);
        expect(await store.searchTerms(['ab', 'x', ''], { limit: 5 })).toEqual([]);
      },
    );

    h.test('accepts any strings as terms without throwing (property)', async () => {
      const store = await h.open();
      await store.remember({ content: 'a "quoted" NEAR(x y) * term', projectKey: PROJECT_A });
      for (const query of HOSTILE_QUERIES) {
        expect(Array.isArray(await store.searchTerms([query], { limit: 5 }))).toBe(true);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }),
          async (terms) => {
            const hits = await store.searchTerms(terms, { limit: 5 });
            expect(Array.isArray(hits)).toBe(true);
          },
        ),
        { numRuns: 60 },
      );
      expect((await store.searchTerms(['"quoted"'], { limit: 5 })).length).toBe(1);
    });
  });

  describe('listUnembedded with a scope', () => {
    h.test('lists only in-scope memories without a vector of the model', async () => {
      const store = await h.open();
      const a = await store.remember({ content: 'alpha note', projectKey: PROJECT_A });
      const g = await store.remember({
        content: 'global note',
        projectKey: PROJECT_B,
        visibility: 'global',
      });
      await store.remember({ content: 'beta note', projectKey: PROJECT_B });
      await store.remember(
        { content: 'alpha embedded', projectKey: PROJECT_A },
        { vector: vectorOf('m', [1, 0]) },
      );
      const listed = await store.listUnembedded('m', 10, scopeA);
      expect(listed.map((m) => m.id)).toEqual([a.memory.id, g.memory.id]);
      expect(await store.listUnembedded('m', 10)).toHaveLength(3);
    });
  });
}
