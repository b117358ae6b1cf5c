/**
 * Sentence vectors built by an earlier rule (retrieval/embed-pending.ts) on every backend: a store whose
 * vectors were written the way the code before rules were recorded wrote them (the same rows, no
 * record) is opened by today's code; those vectors are never ranked, are dropped with their vector
 * spaces, and are rebuilt by the path that fills missing vectors; a new store's vectors carry today's
 * rule; the words leg's vectors (their rule is in their model id) are left alone.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

import { importLines } from '../../src/cli/export-format.js';
import { l2Normalize } from '../../src/core/ranking/cosine.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import type { Embedder } from '../../src/ports/embedder.js';
import {
  adoptVectorRule,
  embedPending,
  memoryVectors,
  sentenceVectorRule,
} from '../../src/retrieval/embed-pending.js';
import { copyStore } from '../../src/store/copy-store.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { SqliteMemoryStore } from '../../src/store/sqlite/sqlite-store.js';
import type { MemoryStore } from '../../src/store/store.js';
import {
  readVectorRule,
  UNKNOWN_VECTOR_RULE,
  vectorRuleKey,
  writeVectorRule,
} from '../../src/store/vector-rules.js';
import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { freshSchema, rawClient } from '../helpers/postgres-test-db.js';
import { storeEnabled } from '../helpers/store-selection.js';

const PROJECT = 'git:example.com/acme/shop';
const clock = { now: () => new Date('2026-03-01T12:00:00.000Z') };
const embedder = new HashEmbedder({ dims: 64 });
const WORDS_MODEL = 'glove-sif-100-0123abcd';

// One session, so the store derives each one's context from its neighbours.
const MEMORIES = [
  'Fixed the flaky upload test with a longer timeout',
  'Deploy with just deploy; it runs migrations first',
  'The product cache expires after five minutes',
].map((content) => ({ content, sessionId: 'session-1' }));

/** The vector the code before rules were recorded stored: content plus the whole context at 0.5. */
async function oldRuleVector(content: string, context: string): Promise<Float32Array> {
  const [own] = await embedder.embed([content]);
  if (context.trim() === '') return own!;
  const [around] = await embedder.embed([context]);
  return l2Normalize(Float64Array.from(own!, (v, d) => v + 0.5 * around![d]!));
}

interface Backend {
  name: string;
  enabled: boolean;
  open(): Promise<{ store: MemoryStore; spaces(): Promise<{ model: string; rows: number }[]> }>;
}

const dir = mkdtempSync(join(tmpdir(), 'mnemo-vector-rule-'));
const clients: { end(): Promise<void> }[] = [];
afterAll(async () => {
  for (const client of clients) await client.end();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
const backends: Backend[] = [
  {
    name: 'sqlite file',
    enabled: storeEnabled('sqlite'),
    open: async () => {
      const path = join(dir, `store-${++files}.db`);
      const store = await openSqliteStore({ path, clock });
      return {
        store,
        spaces: () => {
          const db = openRawSqlite(path);
          try {
            const spaces = db
              .prepare('SELECT model, table_name FROM vector_spaces ORDER BY id')
              .all() as {
              model: string;
              table_name: string;
            }[];
            const tables = db
              .prepare(
                "SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'vec\\_%' ESCAPE '\\' AND type = 'table' AND sql LIKE '%vec0%'",
              )
              .get() as { n: number };
            expect(tables.n, 'every vec0 table is registered in vector_spaces').toBe(spaces.length);
            return Promise.resolve(
              spaces.map((s) => ({
                model: s.model,
                rows: (
                  db.prepare(`SELECT count(*) AS n FROM ${s.table_name}`).get() as { n: number }
                ).n,
              })),
            );
          } finally {
            db.close();
          }
        },
      };
    },
  },
  {
    name: 'postgres server',
    enabled: storeEnabled('postgres') && inject('postgresAdminUrl') !== '',
    open: async () => {
      const schema = freshSchema('rule');
      const url = new URL(inject('postgresAdminUrl'));
      url.searchParams.set('schema', schema);
      const store = await openPostgresStore({ url: url.toString(), clock });
      const raw = await rawClient(inject('postgresAdminUrl'));
      clients.push(raw);
      return {
        store,
        spaces: async () => {
          const { rows } = await raw.query<{ model: string; table_name: string }>(
            `SELECT model, table_name FROM ${schema}.vector_spaces ORDER BY id`,
          );
          const { rows: tables } = await raw.query<{ n: string }>(
            "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'vec\\_%'",
            [schema],
          );
          expect(Number(tables[0]?.n), 'every vector table is registered').toBe(rows.length);
          const out: { model: string; rows: number }[] = [];
          for (const space of rows) {
            const { rows: n } = await raw.query<{ n: string }>(
              `SELECT count(*) AS n FROM ${schema}.${space.table_name}`,
            );
            out.push({ model: space.model, rows: Number(n[0]?.n) });
          }
          return out;
        },
      };
    },
  },
];

/** Stores the memories with vectors as the code before rules were recorded did; returns their ids. */
async function oldStore(store: MemoryStore): Promise<string[]> {
  const ids: string[] = [];
  for (const memory of MEMORIES) {
    const outcome = await store.remember({ ...memory, projectKey: PROJECT, origin: 'user' });
    ids.push(outcome.memory.id);
  }
  const stored = await store.getMemories(ids);
  expect(stored.filter((m) => m.context !== '').length).toBeGreaterThan(0);
  for (const memory of stored) {
    await store.setVector(memory.id, {
      model: embedder.model,
      values: await oldRuleVector(memory.content, memory.context),
    });
    await store.setExtraVector(memory.id, {
      model: WORDS_MODEL,
      values: Float32Array.from({ length: 8 }, (_, i) => (i === 0 ? 1 : 0)),
    });
  }
  return ids;
}

const scope = { projectKey: PROJECT, includeGlobal: true };

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`vector rule on ${backend.name}`, () => {
    it('drops and rebuilds vectors of a store from before rules were recorded, never ranking them', async () => {
      const { store, spaces } = await backend.open();
      try {
        const ids = await oldStore(store);
        expect(await readVectorRule(store, embedder.model)).toBeUndefined();
        const [query] = await embedder.embed(['flaky upload test']);
        expect(
          await store.searchVector({ model: embedder.model, values: query! }, { scope, limit: 5 }),
        ).toHaveLength(3);

        const adopted = await adoptVectorRule(store, embedder);
        expect(adopted).toEqual({
          rule: sentenceVectorRule(embedder),
          dropped: 3,
          droppedRule: null,
          unrebuilt: 3,
          recorded: true,
        });
        // Not ranked: no vector of the model is left to meet the query, none is handed to fusion.
        expect(
          await store.searchVector({ model: embedder.model, values: query! }, { scope, limit: 5 }),
        ).toEqual([]);
        expect((await store.getVectors(ids, embedder.model)).size).toBe(0);
        expect((await store.listUnembedded(embedder.model, 10)).map((m) => m.id)).toEqual(ids);
        // No orphan space: only the words leg's, whose vectors stay.
        expect(await spaces()).toEqual([{ model: WORDS_MODEL, rows: 3 }]);
        expect((await store.getVectors(ids, WORDS_MODEL)).size).toBe(3);

        expect(await embedPending(store, embedder, { max: 10, batchSize: 2 })).toEqual({
          embedded: 3,
          skipped: 0,
        });
        const rebuilt = await store.getVectors(ids, embedder.model);
        const expected = await memoryVectors(embedder, await store.getMemories(ids));
        ids.forEach((id, i) => expect([...rebuilt.get(id)!]).toEqual([...expected[i]!]));
        expect(await readVectorRule(store, embedder.model)).toEqual({
          rule: sentenceVectorRule(embedder),
          dropped: 0,
          droppedRule: null,
        });
        expect((await spaces()).map((s) => s.model).sort()).toEqual(
          [embedder.model, WORDS_MODEL].sort(),
        );
        const hits = await store.searchVector(
          { model: embedder.model, values: query! },
          { scope, limit: 5 },
        );
        expect(hits[0]?.id).toBe(ids[0]);
        // Adopted once: a second run drops nothing.
        expect((await adoptVectorRule(store, embedder)).dropped).toBe(0);
        expect((await store.getVectors(ids, embedder.model)).size).toBe(3);
      } finally {
        await store.close();
      }
    }, 60_000);

    it('drops vectors recorded under another rule, and keeps counting them until all are rebuilt', async () => {
      const { store } = await backend.open();
      try {
        const ids = await oldStore(store);
        await writeVectorRule(store, embedder.model, {
          rule: 'r1-w0.5-l8',
          dropped: 0,
          droppedRule: null,
        });
        // A bounded run (a recall's backlog in one project): one rebuilt, two still missing.
        const first = await embedPending(store, embedder, { max: 1, batchSize: 1, scope });
        expect(first.embedded).toBe(1);
        expect(await readVectorRule(store, embedder.model)).toEqual({
          rule: sentenceVectorRule(embedder),
          dropped: 3,
          droppedRule: 'r1-w0.5-l8',
        });
        expect((await store.getVectors(ids, embedder.model)).size).toBe(1);
        await embedPending(store, embedder, { max: 10, batchSize: 10 });
        expect((await readVectorRule(store, embedder.model))?.dropped).toBe(0);
      } finally {
        await store.close();
      }
    }, 60_000);

    it("records today's rule with a new store's first vectors", async () => {
      const { store } = await backend.open();
      try {
        // An empty store is not written to: no record until its first vector.
        expect((await adoptVectorRule(store, embedder)).recorded).toBe(false);
        expect(await readVectorRule(store, embedder.model)).toBeUndefined();
        await store.remember({
          content: 'Use pnpm in this repo',
          projectKey: PROJECT,
          origin: 'user',
        });
        expect(await embedPending(store, embedder, { max: 10, batchSize: 10 })).toEqual({
          embedded: 1,
          skipped: 0,
        });
        expect(await store.getModelState(vectorRuleKey(embedder.model))).toEqual({
          rule: sentenceVectorRule(embedder),
          dropped: 0,
          droppedRule: null,
        });
      } finally {
        await store.close();
      }
    }, 60_000);

    it('keeps the words leg out of it: extra vectors are neither dropped nor given a record', async () => {
      const { store } = await backend.open();
      try {
        const ids = await oldStore(store);
        const words: Embedder = { model: WORDS_MODEL, dims: 8, embed: () => Promise.resolve([]) };
        await embedPending(store, words, { max: 10, batchSize: 10, slot: 'extra' });
        expect(await readVectorRule(store, WORDS_MODEL)).toBeUndefined();
        expect((await store.getVectors(ids, WORDS_MODEL)).size).toBe(3);
        expect((await store.getVectors(ids, embedder.model)).size).toBe(3);
      } finally {
        await store.close();
      }
    }, 60_000);
  });
}

describe.skipIf(!storeEnabled('sqlite'))(
  'vector rule on the frozen fixture and between stores',
  () => {
    const fixtureModel: Embedder = {
      model: 'fixture-model',
      dims: 4,
      // The fixture's vectors are 4-d: the first 4 of a hash vector, renormalised.
      embed: async (texts) =>
        (await new HashEmbedder({ dims: 8 }).embed(texts)).map((v) => l2Normalize(v.slice(0, 4))),
    };

    it('opens the v10 fixture (made before rules were recorded) and rebuilds its vectors', async () => {
      const path = join(dir, 'fixture-v10.db');
      copyFileSync(new URL('../fixtures/sqlite/schema-v10.db', import.meta.url), path);
      const store = await openSqliteStore({ path, clock });
      try {
        const before = (await store.stats()).vectors['fixture-model'] ?? 0;
        expect(before).toBeGreaterThan(0);
        const adopted = await adoptVectorRule(store, fixtureModel);
        expect(adopted.dropped).toBe(before);
        expect((await store.stats()).vectors['fixture-model']).toBeUndefined();
        const report = await embedPending(store, fixtureModel, { max: 100, batchSize: 10 });
        expect(report.embedded + report.skipped).toBeGreaterThanOrEqual(before);
        expect((await store.stats()).vectors['fixture-model']).toBe(report.embedded);
        expect((await readVectorRule(store, 'fixture-model'))?.rule).toBe(
          sentenceVectorRule(fixtureModel),
        );
      } finally {
        await store.close();
      }
      const db = openRawSqlite(path);
      try {
        const spaces = db
          .prepare("SELECT count(*) AS n FROM vector_spaces WHERE model = 'fixture-model'")
          .get() as { n: number };
        expect(spaces.n).toBe(1);
      } finally {
        db.close();
      }
    });

    it("drops the resident mirror's copy of a dropped space", async () => {
      const store = (await openSqliteStore({
        path: join(dir, 'mirror.db'),
        clock,
        residentVectors: true,
      })) as SqliteMemoryStore;
      try {
        await oldStore(store);
        const mirror = store.vectorMirror!;
        mirror.start();
        await mirror.settled();
        expect(mirror.status().spaces.map((s) => s.rows)).toEqual([3, 3]);
        await adoptVectorRule(store, embedder);
        expect(mirror.status().spaces.map((s) => s.rows)).toEqual([3]);
        await embedPending(store, embedder, { max: 10, batchSize: 10 });
        expect(mirror.status().spaces.map((s) => s.rows)).toEqual([3, 3]);
      } finally {
        await store.close();
      }
    });

    it('carries the rule to a fresh store in a copy, and distrusts it when old vectors join a recorded store', async () => {
      const source = await openSqliteStore({ path: join(dir, 'copy-source.db'), clock });
      const fresh = await openSqliteStore({ path: join(dir, 'copy-fresh.db'), clock });
      const recorded = await openSqliteStore({ path: join(dir, 'copy-recorded.db'), clock });
      try {
        await oldStore(source);
        await embedPending(source, embedder, { max: 10, batchSize: 10 });
        await copyStore(source, fresh, { sourceName: 'source' });
        expect(await readVectorRule(fresh, embedder.model)).toEqual({
          rule: sentenceVectorRule(embedder),
          dropped: 0,
          droppedRule: null,
        });
        expect((await adoptVectorRule(fresh, embedder)).dropped).toBe(0);

        // The same memories with vectors of the old rule (no record) copied into a recorded store.
        const old = await openSqliteStore({ path: join(dir, 'copy-old.db'), clock });
        await oldStore(old);
        await recorded.remember({
          content: 'Use pnpm in this repo',
          projectKey: PROJECT,
          origin: 'user',
        });
        await embedPending(recorded, embedder, { max: 10, batchSize: 10 });
        await copyStore(old, recorded, { sourceName: 'old' });
        await old.close();
        expect((await readVectorRule(recorded, embedder.model))?.rule).toBe(UNKNOWN_VECTOR_RULE);
        expect((await adoptVectorRule(recorded, embedder)).dropped).toBe(4);
      } finally {
        await Promise.all([source.close(), fresh.close(), recorded.close()]);
      }
    });

    it("distrusts a store's rule record when an import brings vectors (exports carry no rule)", async () => {
      const source = await openSqliteStore({ path: join(dir, 'import-source.db'), clock });
      const target = await openSqliteStore({ path: join(dir, 'import-target.db'), clock });
      try {
        await oldStore(source);
        await target.remember({
          content: 'Use pnpm in this repo',
          projectKey: PROJECT,
          origin: 'user',
        });
        await embedPending(target, embedder, { max: 10, batchSize: 10 });
        const lines = [];
        for await (const record of source.exportMemories())
          lines.push({ line: lines.length + 1, record });
        expect(lines.every(({ record }) => record.vector?.model === embedder.model)).toBe(true);
        await importLines(target, lines);
        expect((await readVectorRule(target, embedder.model))?.rule).toBe(UNKNOWN_VECTOR_RULE);
        expect((await adoptVectorRule(target, embedder)).dropped).toBe(4);
        expect(await embedPending(target, embedder, { max: 10, batchSize: 10 })).toEqual({
          embedded: 4,
          skipped: 0,
        });
      } finally {
        await Promise.all([source.close(), target.close()]);
      }
    });
  },
);
