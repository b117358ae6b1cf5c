/**
 * Helpers of the PostgreSQL store tests: the server the global setup started, a fresh database per test
 * file, a fresh schema per store, raw inspection that bypasses the store, and the skip notice when the
 * server is off.
 */
import { randomBytes } from 'node:crypto';

import pg from 'pg';
import { afterAll, describe, inject } from 'vitest';

import { firstBrokenAuditEntry, type StoredAuditRow } from '../../src/store/audit-chain.js';
import type { StoreInspection } from '../../src/store/contract/store.contract.js';
import type { PgQueryable } from '../../src/store/postgres/pg-like.js';
import { lexicalColumns } from '../../src/store/postgres/postgres-rows.js';

/** `describe` when the server runs, else a skipped `describe` that says why. */
export function describeWithPostgres(name: string, body: (server: TestPostgres) => void): void {
  const admin = inject('postgresAdminUrl');
  if (admin === '') {
    describe.skip(`${name} (skipped: ${inject('postgresSkipReason')})`, () => undefined);
    return;
  }
  describe(name, () => body(testPostgres(admin)));
}

export interface TestPostgres {
  adminUrl: string;
  /** A database made for this file (created on first use, dropped after the file). */
  database(): Promise<string>;
  /** URL of this file's database, optionally as another role, and with `?schema=`. */
  url(options?: {
    schema?: string;
    user?: string;
    password?: string;
    database?: string;
  }): Promise<string>;
  /** Runs SQL as the superuser on this file's database (or `database`). */
  admin(sql: string, params?: unknown[], database?: string): Promise<pg.QueryResult>;
}

function withDatabase(url: string, database: string): URL {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed;
}

function testPostgres(adminUrl: string): TestPostgres {
  let made: Promise<string> | undefined;
  const name = `mnemo_test_${randomBytes(5).toString('hex')}`;
  const database = (): Promise<string> => {
    made ??= (async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return name;
    })();
    return made;
  };
  afterAll(async () => {
    if (made === undefined) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  return {
    adminUrl,
    database,
    url: async (options = {}) => {
      const parsed = withDatabase(adminUrl, options.database ?? (await database()));
      if (options.user !== undefined) parsed.username = encodeURIComponent(options.user);
      if (options.password !== undefined) parsed.password = encodeURIComponent(options.password);
      if (options.schema !== undefined) parsed.searchParams.set('schema', options.schema);
      return parsed.toString();
    },
    admin: async (sql, params, db) => {
      const client = new pg.Client({
        connectionString: withDatabase(adminUrl, db ?? (await database())).toString(),
      });
      await client.connect();
      try {
        return await client.query(sql, params);
      } finally {
        await client.end();
      }
    },
  };
}

let schemas = 0;
/** A schema name no other store of this run uses. */
export function freshSchema(prefix = 's'): string {
  schemas += 1;
  return `${prefix}_${process.pid}_${schemas}_${randomBytes(3).toString('hex')}`;
}

/** Raw counts and self-checks of a store's schema, bypassing the adapter. */
export async function inspectPostgresSchema(
  db: PgQueryable,
  schema: string,
): Promise<StoreInspection> {
  const count = async (sql: string): Promise<number> =>
    Number((await db.query<{ n: string | number }>(sql)).rows[0]?.n ?? 0);
  const problems: string[] = [];
  const rows = await db.query<{
    content: string;
    tags: string[];
    context: string;
    lexical_body: string;
    lexical_context: string;
    indexed: boolean;
  }>(
    `SELECT content, tags, context, lexical_body, lexical_context, lexical IS NOT NULL AS indexed
     FROM ${schema}.memories`,
  );
  const mismatched = rows.rows.filter((row) => {
    const expected = lexicalColumns(row.content, row.tags, row.context);
    return row.lexical_body !== expected.body || row.lexical_context !== expected.context;
  });
  if (mismatched.length > 0) problems.push(`lexical: ${mismatched.length} rows out of date`);
  const audit = await db.query<{
    seq: string;
    at: Date;
    action: string;
    memory_id: string | null;
    detail: string;
    prev_hash: string;
    hash: string;
  }>(`SELECT * FROM ${schema}.audit_log ORDER BY seq`);
  const chain: StoredAuditRow[] = audit.rows.map((row) => ({
    seq: Number(row.seq),
    at: new Date(row.at).toISOString(),
    action: row.action,
    memoryId: row.memory_id,
    detail: row.detail,
    prevHash: row.prev_hash,
    hash: row.hash,
  }));
  const broken = firstBrokenAuditEntry(chain);
  if (broken !== null) problems.push(`audit chain breaks at entry ${broken}`);
  const tables = (
    await db.query<{ table_name: string }>(`SELECT table_name FROM ${schema}.vector_spaces`)
  ).rows;
  let vectorRows = 0;
  for (const { table_name: table } of tables) {
    vectorRows += await count(`SELECT count(*) AS n FROM ${schema}.${table}`);
    const orphans = await count(
      `SELECT count(*) AS n FROM ${schema}.${table} v WHERE NOT EXISTS (SELECT 1 FROM ${schema}.memories m WHERE m.seq = v.seq)`,
    );
    if (orphans > 0) problems.push(`${table}: ${orphans} vectors without a memory`);
  }
  return {
    memories: rows.rows.length,
    lexicalRows: rows.rows.filter((row) => row.indexed).length,
    vectorRows,
    auditRows: chain.length,
    problems,
  };
}

/** A pg client on `url` for raw inspection; close it with `end()`. */
export async function rawClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A PgQueryable over one pg client. */
export function clientQueryable(client: pg.Client): PgQueryable {
  return {
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const result = await client.query(sql, params === undefined ? undefined : [...params]);
      return { rows: result.rows as R[], rowCount: result.rowCount };
    },
    exec: async (sql) => {
      await client.query(sql);
    },
  };
}
