/**
 * Applies the migrations of `postgres-schema.ts` with the discipline of the SQLite migrator (threat
 * model S1): each step in its own transaction together with its `schema_migrations` row (a step is never
 * recorded unless it ran), checksums of applied steps verified on every open, views dropped and rebuilt
 * around each step, and a refusal to touch a schema newer than this build. Several processes opening a
 * fresh store at once migrate it exactly once: the upgrade runs under a session-level advisory lock
 * keyed by the store's schema, and the version is re-read once the lock is held.
 */
import { createHash } from 'node:crypto';

import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { translatePostgresError } from './postgres-errors.js';
import { advisoryKey, LOCK_CLASS } from './postgres-locks.js';
import type { PgMigration, PgViewDefinition } from './postgres-schema.js';

export interface PgMigrateOptions {
  /** The store's own schema (already validated as a plain identifier). */
  schema: string;
  /** The server and database, without password, for messages. */
  where: string;
  clock: Clock;
  migrations: readonly PgMigration[];
  views: readonly PgViewDefinition[];
  /** Fault-injection seam for tests: runs inside each step's transaction after its SQL. */
  onStep?: (version: number) => void;
}

export interface PgMigrateReport {
  from: number;
  to: number;
  applied: string[];
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text        NOT NULL,
  checksum   text        NOT NULL,
  applied_at timestamptz NOT NULL
)`;

export function pgMigrationChecksum(migration: PgMigration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}

async function schemaExists(db: PgQueryable, schema: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return rows.length > 0;
}

async function tableExists(db: PgQueryable, schema: string, table: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2',
    [schema, table],
  );
  return rows.length > 0;
}

/** Applied versions and checksums; empty when the schema or its bookkeeping does not exist yet. */
async function appliedMigrations(db: PgQueryable, schema: string): Promise<Map<number, string>> {
  if (!(await tableExists(db, schema, 'schema_migrations'))) return new Map();
  const { rows } = await db.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM schema_migrations ORDER BY version',
  );
  return new Map(rows.map((row) => [Number(row.version), row.checksum]));
}

function versionOf(applied: Map<number, string>): number {
  return Math.max(0, ...applied.keys());
}

/** Brings the store's schema to the last migration. Throws SCHEMA_TOO_NEW, MIGRATION_FAILED, STORE_*. */
export async function migratePostgres(
  db: PgLike,
  options: PgMigrateOptions,
): Promise<PgMigrateReport> {
  const latest = options.migrations.at(-1)?.version ?? 0;
  // Fast path without the lock: every open of an up-to-date store (each hook process) pays one query.
  const seen = await appliedMigrations(db, options.schema);
  if (versionOf(seen) >= latest) {
    verify(seen, options, latest);
    return { from: versionOf(seen), to: versionOf(seen), applied: [] };
  }
  return db.withConnection(async (conn) => {
    const key = advisoryKey(options.schema);
    await conn.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS.migrate, key]);
    try {
      return await migrateLocked(conn, options, latest);
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS.migrate, key]);
    }
  });
}

async function migrateLocked(
  conn: PgQueryable,
  options: PgMigrateOptions,
  latest: number,
): Promise<PgMigrateReport> {
  const { schema } = options;
  if (!(await schemaExists(conn, schema))) {
    await conn.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  }
  // Re-read under the lock: another process may have migrated while this one waited.
  const applied = await appliedMigrations(conn, schema);
  const from = versionOf(applied);
  verify(applied, options, latest);
  if (from === 0) await assertEmptyOrMnemo(conn, schema, options.where);
  await conn.exec(BOOKKEEPING);
  const done: string[] = [];
  let current = from;
  for (const migration of options.migrations.filter((m) => m.version > from)) {
    await applyOne(conn, migration, options, current);
    current = migration.version;
    done.push(migration.name);
  }
  return { from, to: current, applied: done };
}

async function applyOne(
  conn: PgQueryable,
  migration: PgMigration,
  options: PgMigrateOptions,
  previous: number,
): Promise<void> {
  await conn.query('BEGIN');
  try {
    for (const view of options.views) await conn.exec(`DROP VIEW IF EXISTS ${view.name}`);
    await conn.exec(migration.sql);
    await migration.backfill?.(conn);
    for (const view of options.views) {
      if (view.sinceVersion <= migration.version) await conn.exec(view.sql);
    }
    options.onStep?.(migration.version);
    await conn.query(
      'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
      [migration.version, migration.name, pgMigrationChecksum(migration), options.clock.now()],
    );
    await conn.query('COMMIT');
  } catch (error) {
    await conn.query('ROLLBACK').catch(() => undefined);
    const translated = translatePostgresError(error, options.where);
    if (translated instanceof MemoryError) throw translated;
    const cause = error instanceof Error ? error.message : String(error);
    throw new MemoryError(
      'MIGRATION_FAILED',
      `Migration v${migration.version} (${migration.name}) failed on ${options.where} (schema ` +
        `${options.schema}); the store is unchanged at v${previous}. Back it up with pg_dump before ` +
        `retrying, and report the cause: ${cause}`,
      { cause: error, details: { version: migration.version } },
    );
  }
}

function verify(applied: Map<number, string>, options: PgMigrateOptions, latest: number): void {
  const version = versionOf(applied);
  if (version > latest) {
    throw new MemoryError(
      'SCHEMA_TOO_NEW',
      `Database schema v${version} in ${options.where} (schema ${options.schema}) is newer than this ` +
        `mnemo (v${latest}). Upgrade mnemo on this machine, or point MNEMO_DATABASE_URL at another store.`,
      { details: { version, latest } },
    );
  }
  for (const migration of options.migrations) {
    if (migration.version > version) break;
    const checksum = applied.get(migration.version);
    const expected = pgMigrationChecksum(migration);
    if (checksum !== expected) {
      throw new MemoryError(
        'MIGRATION_FAILED',
        `Migration v${migration.version} (${migration.name}) recorded in ${options.where} (schema ` +
          `${options.schema}) does not match this mnemo's copy (` +
          `${checksum === undefined ? 'no record' : `checksum ${checksum.slice(0, 12)}`} vs ` +
          `${expected.slice(0, 12)}). The schema history was altered; restore a backup or use the ` +
          'mnemo release that created this store.',
        { details: { version: migration.version } },
      );
    }
  }
}

async function assertEmptyOrMnemo(conn: PgQueryable, schema: string, where: string): Promise<void> {
  const { rows } = await conn.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p') AND c.relname <> 'schema_migrations'`,
    [schema],
  );
  if ((rows[0]?.n ?? 0) > 0) {
    throw new MemoryError(
      'STORE_UNAVAILABLE',
      `Schema ${schema} in ${where} holds tables but no mnemo schema version. mnemo will not write ` +
        'into it; choose another schema with ?schema=<name> in MNEMO_DATABASE_URL.',
      { details: { schema } },
    );
  }
}
