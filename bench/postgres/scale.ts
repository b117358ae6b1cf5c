// Scale measurements of the PostgreSQL store (docs/scaling.md): a throwaway PostgreSQL server with
// 100k memories on the portable vector fallback, and PGlite + pgvector HNSW at the size it allows.
// Prints a baseline round trip measured in the same run.
//
//   npx tsx bench/postgres/scale.ts [--rows 100000] [--lite-rows 5000]
import { performance } from 'node:perf_hooks';

import pg from 'pg';

import { contentHash } from '../../src/store/content-hash.js';
import { seededRandom } from '../../src/store/contract/fixtures.js';
import { ulidSource } from '../../src/store/default-ids.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openPostgresStoreOn } from '../../src/store/postgres/postgres-open.js';
import { lexicalColumns } from '../../src/store/postgres/postgres-rows.js';
import type { MemoryStore } from '../../src/store/store.js';
import { vectorBytes } from '../../src/store/write-rules.js';
import { startPglite } from '../../test/helpers/pglite-db.js';
import { startPostgresServer } from '../../test/helpers/postgres-server.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const ROWS = arg('--rows', 100_000);
const LITE_ROWS = arg('--lite-rows', 5_000);
const DIMS = 384;
const WORDS =
  'deploy cache test build postgres sqlite retry timeout hook session memory vector index schema migration pool lock query token budget recall origin audit ledger anchor project team'.split(
    ' ',
  );
const random = seededRandom(42);
const word = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
const sentence = (i: number): string =>
  `note ${i}: ${Array.from({ length: 12 }, word).join(' ')} in src/module_${i % 500}.ts`;
const unit = (): Float32Array => {
  const v = Float32Array.from({ length: DIMS }, () => random() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

async function time(label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  await work();
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await work();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  console.log(`${label.padEnd(58)} p50 ${p(0.5).padStart(7)} ms   p95 ${p(0.95).padStart(7)} ms`);
}

async function queries(
  store: MemoryStore,
  label: string,
  scope: { projectKey: string; includeGlobal: boolean },
): Promise<void> {
  const query = unit();
  const lexical = await store.searchLexical('postgres pool timeout', { limit: 30, scope });
  await time(`${label}: searchLexical (3 words, 30 hits)`, 20, () =>
    store.searchLexical('postgres pool timeout', { limit: 30, scope }),
  );
  await time(`${label}: searchTerms (module_42)`, 20, () =>
    store.searchTerms(['module_42'], { limit: 30, scope }),
  );
  await time(
    `${label}: searchVector k=30 (${store.capabilities.vectorIndex ? 'HNSW' : 'fallback + candidates'})`,
    20,
    () =>
      store.searchVector(
        { model: 'bench', values: query },
        { limit: 30, scope, candidates: lexical.map((h) => h.id) },
      ),
  );
}

async function bulkLoad(
  client: { query(sql: string, params: unknown[]): Promise<unknown> },
  schema: string,
  rows: number,
  project: string,
): Promise<void> {
  const BATCH = 2000;
  const at = new Date('2026-01-01T00:00:00.000Z').toISOString();
  const ids = ulidSource({ now: () => new Date(at) });
  for (let start = 0; start < rows; start += BATCH) {
    const n = Math.min(BATCH, rows - start);
    const content = Array.from({ length: n }, (_, i) => sentence(start + i));
    await client.query(
      `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[]) AS t(id, content, hash, lex, emb)),
       ins AS (INSERT INTO ${schema}.memories (id, content, project_key, visibility, kind, tags, origin, created_at, updated_at,
         content_hash, embedding_model, trust_band, quarantine, gate_reason, lexical_body, team_visible)
         SELECT id, content, $6, 'project', 'note', '{}', 'user', $7, $7, hash, 'bench', 'high', 'none', 'novel', lex, true FROM input
         RETURNING seq, id)
       INSERT INTO ${schema}.vec_1 (seq, embedding) SELECT ins.seq, input.emb FROM ins JOIN input USING (id)`,
      [
        Array.from({ length: n }, () => ids.next()),
        content,
        content.map(contentHash),
        content.map((c) => lexicalColumns(c, [], '').body),
        Array.from({ length: n }, () => Buffer.from(vectorBytes(unit()))),
        project,
        at,
      ],
    );
  }
}

const server = await startPostgresServer();
try {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  await time('baseline: SELECT 1 round trip (pg client, loopback)', 50, () =>
    client.query('SELECT 1'),
  );
  const url = new URL(server.adminUrl);
  url.searchParams.set('schema', 'bench');
  const seeding = await openPostgresStore({ url: url.toString() });
  // One vector space of the bench model, created through the adapter, then bulk-filled.
  const { memory } = await seeding.remember(
    { content: 'seed', projectKey: 'git:bench/app', origin: 'user' },
    { vector: { model: 'bench', values: unit() } },
  );
  await seeding.forget(memory.id);
  await seeding.close();
  const loadStart = performance.now();
  await bulkLoad(client, 'bench', ROWS, 'git:bench/app');
  // The bulk load bypassed the term statistics: the next open rebuilds them, as after a migration.
  await client.query("UPDATE bench.lexical_state SET analyzer = ''");
  const store = await openPostgresStore({ url: url.toString() });
  await client.query('ANALYZE bench.memories');
  console.log(
    `loaded ${ROWS} rows of ${DIMS}-d vectors in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
  );
  const size = await client.query(
    `SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS s FROM pg_class c WHERE c.relnamespace = 'bench'::regnamespace AND c.relkind IN ('r','m')`,
  );
  console.log(`schema size: ${(size.rows[0] as { s: string }).s}`);
  await queries(store, `server ${ROWS / 1000}k`, {
    projectKey: 'git:bench/app',
    includeGlobal: true,
  });
  await time(`server ${ROWS / 1000}k: remember (one transaction, audit appended)`, 20, async () =>
    store.remember({
      content: `bench write ${performance.now()} ${random()}`,
      projectKey: 'git:bench/app',
      origin: 'user',
    }),
  );
  await store.close();
  await client.end();
} finally {
  server.stop();
}

const lite = await startPglite();
try {
  const db = lite.handle('lite');
  const store = await openPostgresStoreOn({
    db,
    schema: 'lite',
    where: 'pglite',
    clock: { now: () => new Date() },
    ids: ulidSource({ now: () => new Date() }),
  });
  const t = performance.now();
  for (let i = 0; i < LITE_ROWS; i += 1) {
    await store.remember(
      { content: sentence(i), projectKey: 'git:bench/app', origin: 'user' },
      { vector: { model: 'bench', values: unit() } },
    );
  }
  console.log(
    `pglite: ${LITE_ROWS} remembers with ${DIMS}-d vectors into HNSW in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  await queries(store, `pglite ${LITE_ROWS / 1000}k`, {
    projectKey: 'git:bench/app',
    includeGlobal: true,
  });
  await store.close();
} finally {
  await lite.close();
}
