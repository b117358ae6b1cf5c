/**
 * PostgreSQL migrations proven old → new (threat model S1): a schema created by v1's own checked-in SQL
 * (test/fixtures/postgres/schema-v1.sql) opened by the current code gains the new columns on the table
 * and the view, keeps its rows and vectors, is backfilled and stays searchable; a fresh install ends
 * with exactly the same columns; a failing step is never recorded; a newer schema is refused; several
 * processes opening one fresh schema at once migrate it exactly once. On the real server and on PGlite.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { type SharedPglite, startPglite } from '../../../test/helpers/pglite-db.js';
import {
  clientQueryable,
  describeWithPostgres,
  freshSchema,
  rawClient,
} from '../../../test/helpers/postgres-test-db.js';
import { storeEnabled } from '../../../test/helpers/store-selection.js';
import { isMemoryError } from '../../core/errors.js';
import { QUARANTINE_STATES } from '../../core/memory.js';
import { ulidSource } from '../default-ids.js';
import type { MemoryStore } from '../store.js';
import { openPostgresStore } from './open-postgres-store.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { openPostgresStoreOn } from './postgres-open.js';
import { PG_LATEST_SCHEMA_VERSION, PG_MIGRATIONS } from './postgres-schema.js';

const fixture = (version: number): string =>
  readFileSync(
    fileURLToPath(
      new URL(`../../../test/fixtures/postgres/schema-v${version}.sql`, import.meta.url),
    ),
    'utf8',
  );
const FIXTURE = fixture(1);
const FIXTURE_V3 = fixture(3);
const DIST_OPENER = fileURLToPath(
  new URL('../../../dist/store/postgres/open-postgres-store.js', import.meta.url),
);
const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };
const every = { limit: 100, includeSuperseded: true, quarantine: QUARANTINE_STATES };
const V1_IDS = Array.from({ length: 6 }, (_, i) => `01JPG${String(i + 1).padStart(21, '0')}`);

interface Target {
  /** Runs SQL with search_path = schema, outside the store. */
  raw(schema: string): Promise<PgQueryable>;
  open(schema: string, migrations?: typeof PG_MIGRATIONS): Promise<MemoryStore>;
}

async function columns(db: PgQueryable, schema: string, table: string): Promise<string[]> {
  const { rows } = await db.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
     ORDER BY column_name`,
    [schema, table],
  );
  return rows.map((row) => `${row.column_name}:${row.data_type}`);
}

function describeUpgrade(name: string, target: () => Target): void {
  describe(name, () => {
    it('opens a v1 schema made by its own SQL: new columns on table and view, rows intact, backfilled, searchable', async () => {
      const schema = freshSchema('v1');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE);
      const before = (
        await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
      ).rows;
      const vectorsBefore = (await raw.query('SELECT seq, embedding FROM vec_1 ORDER BY seq')).rows;
      expect(await columns(raw, schema, 'memories')).not.toContain('team_visible:boolean');
      const store = await target().open(schema);
      try {
        expect(store.schemaVersion).toBe(PG_LATEST_SCHEMA_VERSION);
        const after = (
          await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
        ).rows;
        expect(after.map((row) => row['id'])).toEqual(V1_IDS);
        after.forEach((row, i) => {
          const old = before[i]!;
          for (const [column, value] of Object.entries(old))
            expect(row[column], column).toEqual(value);
          expect(row).toMatchObject({
            author_user: null,
            author_host: null,
            team_visible:
              old['visibility'] === 'project' &&
              ['user', 'agent', 'local_edit', 'local_read', 'local_exec'].includes(
                String(old['origin']),
              ),
          });
        });
        expect((await raw.query('SELECT seq, embedding FROM vec_1 ORDER BY seq')).rows).toEqual(
          vectorsBefore,
        );
        // The view was rebuilt after the table changed: it has the new columns.
        const view = await columns(raw, schema, 'active_memories');
        expect(view).toEqual(expect.arrayContaining(['author_user:text', 'team_visible:boolean']));
        expect((await raw.query('SELECT count(*)::int AS n FROM active_memories')).rows[0]).toEqual(
          { n: 5 },
        );
        const recorded = await raw.query<{ version: number; checksum: string }>(
          'SELECT version, checksum FROM schema_migrations ORDER BY version',
        );
        expect(recorded.rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
        // Everything still reads through the port.
        const memories = await store.listMemories(every);
        expect(memories.map((m) => m.id).sort()).toEqual(V1_IDS);
        expect((await store.searchLexical('deploy', { limit: 5 })).map((h) => h.id)).toEqual([
          V1_IDS[2],
        ]);
        expect((await store.searchLexical('cafe resume', { limit: 5 })).map((h) => h.id)).toEqual([
          V1_IDS[4],
        ]);
        expect((await store.searchTerms(['npm run build'], { limit: 5 })).map((h) => h.id)).toEqual(
          [V1_IDS[0]],
        );
        const near = await store.searchVector(
          { model: 'fixture-model', values: Float32Array.from([1, 0.1, 0, 0]) },
          { limit: 1 },
        );
        expect(near.map((h) => h.id)).toEqual([V1_IDS[0]]);
        expect(await store.getSessionTaint('session-fixture-2')).toMatchObject({
          tainted: true,
          origin: 'network',
        });
        expect(await store.injectedIds('session-fixture-4')).toEqual([V1_IDS[0], V1_IDS[2]]);
        expect(await store.checkIntegrity()).toEqual([]);
        // And it writes: new rows get the new columns.
        const added = await store.remember({
          content: 'written after the upgrade',
          projectKey: '/p',
          origin: 'user',
        });
        expect(added.memory.teamVisible).toBe(true);
      } finally {
        await store.close();
      }
    });

    it('opens a v3 schema made by its own SQL: source address backfilled from fetch captures only, browse indexes', async () => {
      const schema = freshSchema('v3');
      const raw = await target().raw(schema);
      await raw.exec(FIXTURE_V3);
      const before = (
        await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
      ).rows;
      expect(before).toHaveLength(9);
      expect(await columns(raw, schema, 'memories')).not.toContain('source_url:text');
      const store = await target().open(schema);
      try {
        const after = (
          await raw.query<Record<string, unknown>>('SELECT * FROM memories ORDER BY seq')
        ).rows;
        after.forEach((row, i) => {
          for (const [column, value] of Object.entries(before[i]!))
            expect(row[column], column).toEqual(value);
        });
        // Only the network capture whose first line names its page gains an address, in the write
        // path's form (host lower-case, default port, query and fragment dropped); the user's note that
        // begins the same way and the v1-era capture without that line stay NULL.
        expect(after.map((row) => [row['id'], row['source_url'], row['source_host']])).toEqual(
          after.map((row) =>
            row['id'] === `01JPG${'7'.padStart(21, '0')}`
              ? [row['id'], 'https://docs.example.com/quotas', 'docs.example.com']
              : [row['id'], null, null],
          ),
        );
        const view = await columns(raw, schema, 'active_memories');
        expect(view).toEqual(expect.arrayContaining(['source_url:text', 'source_host:text']));
        const { rows: indexes } = await raw.query<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname IN ('memories_browse', 'memories_warm') ORDER BY 1",
          [schema],
        );
        expect(indexes.map((r) => r.indexname)).toEqual(['memories_browse', 'memories_warm']);
        // Through the port: the page's group and its filter, and the author's row stays private.
        const page = await store.getMemory(`01JPG${'7'.padStart(21, '0')}`);
        expect(page?.sourceUrl).toBe('https://docs.example.com/quotas');
        expect(
          await store.countMemoryGroups(
            { quarantine: ['pending'] },
            { by: 'sourceHost', limit: 5 },
          ),
        ).toEqual([
          { key: 'docs.example.com', count: 1 },
          { key: null, count: 1 },
        ]);
        expect(
          (await store.listMemories({ limit: 10, sourceDomains: ['example.com'] })).map(
            (m) => m.id,
          ),
        ).toEqual([page?.id]);
        const erin = await store.listMemories({ limit: 20, reader: 'erin' });
        expect(erin.map((m) => m.id)).not.toContain(`01JPG${'9'.padStart(21, '0')}`);
        expect(await store.checkIntegrity()).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('ends a fresh install and an upgrade with the same tables and columns', async () => {
      const fresh = freshSchema('fresh');
      const upgraded = freshSchema('up');
      const fromV3 = freshSchema('up3');
      const raw = await target().raw(upgraded);
      await raw.exec(FIXTURE);
      await (await target().raw(fromV3)).exec(FIXTURE_V3);
      for (const schema of [fresh, upgraded, fromV3]) await (await target().open(schema)).close();
      for (const table of [
        'memories',
        'active_memories',
        'audit_log',
        'vector_spaces',
        'injections',
        'session_taint',
        'counters',
        'remember_claims',
        'schema_migrations',
      ]) {
        expect(await columns(raw, fresh, table), table).toEqual(
          await columns(raw, upgraded, table),
        );
        expect(await columns(raw, fresh, table), table).toEqual(await columns(raw, fromV3, table));
      }
    });

    it('never records a migration that failed, and leaves none of its DDL behind', async () => {
      const schema = freshSchema('fail');
      const broken = [
        ...PG_MIGRATIONS,
        {
          version: PG_LATEST_SCHEMA_VERSION + 1,
          name: 'broken',
          sql: 'CREATE TABLE half_done (x int); SELECT 1 / 0;',
        },
      ];
      const error = await target()
        .open(schema, broken)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isMemoryError(error, 'MIGRATION_FAILED'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`unchanged at v${PG_LATEST_SCHEMA_VERSION}`),
      );
      const raw = await target().raw(schema);
      const { rows } = await raw.query<{ v: number }>(
        'SELECT max(version) AS v FROM schema_migrations',
      );
      expect(rows[0]?.v).toBe(PG_LATEST_SCHEMA_VERSION);
      expect(await columns(raw, schema, 'half_done')).toEqual([]);
      // The store still opens with the released migrations.
      await (await target().open(schema)).close();
    });

    it('refuses a schema newer than this build', async () => {
      const schema = freshSchema('new');
      await (await target().open(schema)).close();
      const raw = await target().raw(schema);
      await raw.query("INSERT INTO schema_migrations VALUES (99, 'future', 'x', now())");
      const error = await target()
        .open(schema)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isMemoryError(error, 'SCHEMA_TOO_NEW'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(/schema v99 .* is newer than this mnemo/);
    });
  });
}

if (storeEnabled('postgres')) {
  describeWithPostgres('postgres server migrations', (server) => {
    let client: Awaited<ReturnType<typeof rawClient>> | undefined;
    afterAll(async () => client?.end());
    describeUpgrade('upgrade and fresh install', () => ({
      raw: async (schema) => {
        client ??= await rawClient(await server.url());
        const db = clientQueryable(client);
        await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
        return db;
      },
      open: async (schema, migrations) =>
        openPostgresStore({
          url: await server.url({ schema }),
          clock,
          ...(migrations === undefined ? {} : { migrations }),
        }),
    }));

    it('migrates exactly once when several processes open one fresh schema at once', async () => {
      expect(existsSync(DIST_OPENER), 'run `npm run build` first').toBe(true);
      const schema = freshSchema('race');
      const url = await server.url({ schema });
      const script = `const { openPostgresStore } = await import(${JSON.stringify(pathToFileURL(DIST_OPENER).href)});
        const store = await openPostgresStore({ url: process.argv[1] });
        await store.remember({ content: 'opened by ' + process.pid, projectKey: '/race' });
        await store.close();`;
      const codes = await Promise.all(
        Array.from(
          { length: 5 },
          () =>
            new Promise<number | null>((resolve, reject) => {
              const child = spawn(process.execPath, ['--input-type=module', '-e', script, url], {
                stdio: ['ignore', 'ignore', 'inherit'],
              });
              child.on('error', reject);
              child.on('close', resolve);
            }),
        ),
      );
      expect(codes).toEqual([0, 0, 0, 0, 0]);
      const { rows } = await server.admin(
        `SELECT version, count(*)::int AS n FROM ${schema}.schema_migrations GROUP BY version ORDER BY version`,
      );
      expect(rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
      const { rows: memories } = await server.admin(
        `SELECT count(*)::int AS n FROM ${schema}.memories`,
      );
      expect(memories).toEqual([{ n: 5 }]);
    });
  });
}

if (storeEnabled('pglite')) {
  let shared: Promise<SharedPglite> | undefined;
  const lite = (): Promise<SharedPglite> => (shared ??= startPglite());
  afterAll(async () => (shared === undefined ? undefined : (await shared).close()));
  const handles = new Map<string, PgLike>();
  const handle = async (schema: string): Promise<PgLike> => {
    const existing = handles.get(schema);
    if (existing !== undefined) return existing;
    const made = (await lite()).handle(schema);
    handles.set(schema, made);
    return made;
  };
  describeUpgrade('pglite migrations', () => ({
    raw: async (schema) => {
      const db = await handle(schema);
      await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      return db;
    },
    open: async (schema, migrations) =>
      openPostgresStoreOn({
        db: (await lite()).handle(schema),
        schema,
        where: 'pglite',
        clock,
        ids: ulidSource(clock),
        ...(migrations === undefined ? {} : { migrations }),
      }),
  }));
}
