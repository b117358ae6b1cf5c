/**
 * Cross-backend parity (threat model principle 13): the same corpus and the same queries through the
 * same hybrid recall give the same expected memories in the top results on SQLite, the PostgreSQL
 * server (portable vector fallback) and PGlite (pgvector HNSW). Lexical scoring differs by design
 * (bm25 against ts_rank), so the test compares sets of top results, not scores or exact order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { ulidSource } from '../../src/store/default-ids.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openPostgresStoreOn } from '../../src/store/postgres/postgres-open.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { MemoryStore } from '../../src/store/store.js';
import { type SharedPglite, startPglite } from '../helpers/pglite-db.js';
import { freshSchema } from '../helpers/postgres-test-db.js';
import { storeEnabled } from '../helpers/store-selection.js';

const PROJECT = 'git:example.com/acme/shop';
const clock = { now: () => new Date('2026-03-01T12:00:00.000Z') };
const embedder = new HashEmbedder({ dims: 256 });

/** Memories a team's sessions would leave, keyed by a label the expectations use. */
const CORPUS: Record<string, string> = {
  deploy: 'Deploy to production with `just deploy`; it runs migrations before switching traffic.',
  tests: 'Run the unit tests with `npm test`; the e2e suite needs `npm run build` first.',
  envvar: 'The payment service reads STRIPE_WEBHOOK_SECRET from the environment at start-up.',
  postgres: 'PostgreSQL connections are pooled: at most 4 per process, see MNEMO_DATABASE_URL.',
  flaky: 'The checkout e2e test is flaky on slow machines; rerun it before filing a bug.',
  style: 'Prefer small pure functions and keep input/output behind ports.',
  cache: 'The product cache expires after five minutes; invalidate it on price changes.',
  cafe: 'Café menu parser: naïve résumé tokens must match with or without accents.',
  login: 'getUserById caches users for a minute; call it freely from request handlers.',
  logs: 'Logs go to ~/.mnemo/logs/mnemo.log, never to stdout, because stdout is the protocol.',
  timezone: 'Store timestamps as ISO-8601 UTC strings, never in local time.',
  retry: 'HTTP calls to the tax API retry three times with exponential backoff.',
};

const QUERIES: { query: string; expect: string }[] = [
  { query: 'how do we deploy to production', expect: 'deploy' },
  { query: 'run the unit tests', expect: 'tests' },
  { query: 'STRIPE_WEBHOOK_SECRET', expect: 'envvar' },
  { query: 'postgres connection pool size', expect: 'postgres' },
  { query: 'flaky checkout test', expect: 'flaky' },
  { query: 'cafe resume accents', expect: 'cafe' },
  { query: 'getUserById', expect: 'login' },
  { query: 'where do logs go', expect: 'logs' },
  { query: 'timestamps time zone', expect: 'timezone' },
  { query: 'tax API retries', expect: 'retry' },
];

async function fill(store: MemoryStore): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const [label, content] of Object.entries(CORPUS)) {
    const [values] = await embedder.embed([content]);
    const { memory } = await store.remember(
      { content, projectKey: PROJECT, origin: 'user' },
      { vector: { model: embedder.model, values: values! } },
    );
    labels.set(memory.id, label);
  }
  return labels;
}

/** The labels of the top three of every query. */
async function topThree(store: MemoryStore): Promise<Record<string, string[]>> {
  const labels = await fill(store);
  const out: Record<string, string[]> = {};
  for (const { query } of QUERIES) {
    const hits = await retrieve(
      { store, embedder, clock },
      { query, scope: { projectKey: PROJECT, includeGlobal: true }, limit: 3 },
    );
    out[query] = hits.map((hit) => labels.get(hit.memory.id) ?? '?').sort();
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'mnemo-parity-'));
let lite: Promise<SharedPglite> | undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (lite !== undefined) await (await lite).close();
});

const backends: { name: string; enabled: boolean; open: () => Promise<MemoryStore> }[] = [
  {
    name: 'sqlite',
    enabled: storeEnabled('sqlite'),
    open: () => openSqliteStore({ path: join(dir, 'parity.db'), clock }),
  },
  {
    name: 'postgres server (vector fallback)',
    enabled: storeEnabled('postgres') && inject('postgresAdminUrl') !== '',
    open: () => {
      const url = new URL(inject('postgresAdminUrl'));
      url.searchParams.set('schema', freshSchema('parity'));
      return openPostgresStore({ url: url.toString(), clock });
    },
  },
  {
    name: 'pglite (pgvector HNSW)',
    enabled: storeEnabled('pglite'),
    open: async () => {
      lite ??= startPglite();
      const schema = freshSchema('parity');
      return openPostgresStoreOn({
        db: (await lite).handle(schema),
        schema,
        where: 'pglite',
        clock,
        ids: ulidSource(clock),
      });
    },
  },
];

describe('store parity', () => {
  const results = new Map<string, Record<string, string[]>>();
  for (const backend of backends) {
    (backend.enabled ? it : it.skip)(
      `finds the expected memory in the top three on ${backend.name}`,
      async () => {
        const store = await backend.open();
        try {
          const top = await topThree(store);
          for (const { query, expect: label } of QUERIES)
            expect(top[query], query).toContain(label);
          results.set(backend.name, top);
        } finally {
          await store.close();
        }
      },
      120_000,
    );
  }

  it('returns the same top-three sets on every backend that ran', () => {
    const [first, ...rest] = [...results.values()];
    expect(results.size).toBeGreaterThan(0);
    for (const other of rest) {
      let same = 0;
      for (const { query } of QUERIES)
        if (JSON.stringify(other[query]) === JSON.stringify(first?.[query])) same += 1;
      // Sets of three, not orders: allow one query in ten whose third place differs by lexical scoring.
      expect(same, JSON.stringify({ first, other }, null, 1)).toBeGreaterThanOrEqual(
        QUERIES.length - 1,
      );
    }
  });
});
