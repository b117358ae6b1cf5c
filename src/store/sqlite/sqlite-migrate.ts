/**
 * Applies the schema migrations of `sqlite-schema.ts` (threat model S1): each step in its own
 * `BEGIN IMMEDIATE` transaction with its `schema_migrations` row and `PRAGMA user_version`, a
 * `VACUUM INTO` backup before upgrading an existing store, checksums of applied steps verified on every
 * open (against each step's written-out `checksum`, so an open hashes nothing), and a refusal to touch a schema newer than this build. Safe when several processes open a fresh
 * store at once: the version is re-read under the write lock.
 */
import { createHash } from 'node:crypto';

import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import { backupTarget } from './sqlite-backup-files.js';
import { translateSqliteError } from './sqlite-errors.js';
import type { SqliteLike } from './sqlite-like.js';
import type { Migration, ViewDefinition } from './sqlite-schema.js';
import { immediateTransaction } from './sqlite-tx.js';

export interface MigrateOptions {
  /** The database file, for backups and messages. */
  path: string;
  clock: Clock;
  migrations: readonly Migration[];
  views: readonly ViewDefinition[];
  /** For backfills: the portable key of a stored path key (see sqlite-rekey.ts). */
  rekeyProject?: ((key: string) => string | undefined) | undefined;
}

export interface MigrateReport {
  from: number;
  to: number;
  applied: string[];
  backupPath: string | null;
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  checksum   TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

/** sha256 of the step's `sql` (hex), hashed here: what an applied step records. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}

/** The checksum an applied step must have recorded: its written-out `checksum`, else hashed. */
function expectedChecksum(migration: Migration): string {
  return migration.checksum ?? migrationChecksum(migration);
}

export function readUserVersion(db: SqliteLike): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  return row.user_version;
}

/** Brings `db` to the last version of `migrations`. Throws SCHEMA_TOO_NEW, MIGRATION_FAILED, STORE_*. */
export function migrate(db: SqliteLike, options: MigrateOptions): MigrateReport {
  const { migrations, path } = options;
  assertOrdered(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const from = startingVersion(db, path);
  assertNotTooNew(from, latest);
  if (from > 0) verifyChecksums(db, migrations, from, path);

  const pending = migrations.filter((m) => m.version > from);
  if (pending.length === 0) return { from, to: from, applied: [], backupPath: null };
  const backupPath = from > 0 ? backup(db, path, from, options.clock) : null;

  const applied: string[] = [];
  for (const migration of pending) {
    if (applyOne(db, migration, options, backupPath)) applied.push(migration.name);
  }
  return { from, to: readUserVersion(db), applied, backupPath };
}

function applyOne(
  db: SqliteLike,
  migration: Migration,
  options: MigrateOptions,
  backupPath: string | null,
): boolean {
  let previous = readUserVersion(db);
  try {
    return immediateTransaction(db, () => {
      previous = readUserVersion(db);
      assertNotTooNew(previous, options.migrations.at(-1)?.version ?? 0);
      // Another process may have migrated while we waited for the lock.
      if (previous >= migration.version) return false;
      db.exec(BOOKKEEPING);
      for (const view of options.views) db.exec(`DROP VIEW IF EXISTS ${view.name}`);
      db.exec(migration.sql);
      migration.backfill?.(db, {
        at: options.clock.now().toISOString(),
        rekeyProject: options.rekeyProject,
      });
      for (const view of options.views) {
        if (view.sinceVersion <= migration.version) db.exec(view.sql);
      }
      db.prepare(
        'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
      ).run(
        migration.version,
        migration.name,
        migrationChecksum(migration),
        options.clock.now().toISOString(),
      );
      db.exec(`PRAGMA user_version = ${migration.version}`);
      return true;
    });
  } catch (error) {
    const translated = translateSqliteError(error, options.path);
    if (translated instanceof MemoryError) throw translated;
    const backupNote =
      backupPath === null ? '' : ` A backup taken before migrating is at ${backupPath}.`;
    const cause = error instanceof Error ? error.message : String(error);
    throw new MemoryError(
      'MIGRATION_FAILED',
      `Migration v${migration.version} (${migration.name}) failed on ${options.path}; the store is ` +
        `unchanged at v${previous}.${backupNote} Cause: ${cause}`,
      { cause: error, details: { version: migration.version, backupPath } },
    );
  }
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) {
      throw new Error(
        `Migrations must be numbered 1..n in order; found v${m.version} at ${index}.`,
      );
    }
  });
}

function assertNotTooNew(version: number, latest: number): void {
  if (version > latest) {
    throw new MemoryError(
      'SCHEMA_TOO_NEW',
      `Database schema v${version} is newer than this mnemo (v${latest}). Upgrade mnemo or point MNEMO_HOME at another store.`,
      { details: { version, latest } },
    );
  }
}

/**
 * The store's version, and for version 0 the check that the file holds nothing else, read from one
 * snapshot: another process may be creating the store right now, and two separate reads could see its
 * version before the commit and its tables after, and refuse a mnemo store as foreign.
 */
function startingVersion(db: SqliteLike, path: string): number {
  db.exec('BEGIN');
  try {
    const version = readUserVersion(db);
    if (version === 0) assertEmptyOrMnemo(db, path);
    return version;
  } finally {
    db.exec('COMMIT');
  }
}

function assertEmptyOrMnemo(db: SqliteLike, path: string): void {
  const row = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name <> 'schema_migrations'")
    .get() as { n: number };
  if (row.n > 0) {
    throw new MemoryError(
      'STORE_UNAVAILABLE',
      `${path} is a SQLite database but not a mnemo store (it has tables and no mnemo schema ` +
        'version). mnemo will not write into it; point MNEMO_HOME at another directory.',
      { details: { path } },
    );
  }
}

function verifyChecksums(
  db: SqliteLike,
  migrations: readonly Migration[],
  version: number,
  path: string,
): void {
  let recorded: { version: number; checksum: string }[];
  try {
    recorded = db
      .prepare('SELECT version, checksum FROM schema_migrations')
      .all() as typeof recorded;
  } catch (error) {
    const translated = translateSqliteError(error, path);
    if (translated instanceof MemoryError) throw translated;
    recorded = [];
  }
  const byVersion = new Map(recorded.map((r) => [r.version, r.checksum]));
  for (const migration of migrations) {
    if (migration.version > version) break;
    const checksum = byVersion.get(migration.version);
    const expected = expectedChecksum(migration);
    if (checksum !== expected) {
      throw new MemoryError(
        'MIGRATION_FAILED',
        `Migration v${migration.version} (${migration.name}) recorded in ${path} does not match ` +
          `this mnemo's copy (${checksum === undefined ? 'no record' : `checksum ${checksum.slice(0, 12)}`} ` +
          `vs ${expected.slice(0, 12)}). The schema history was altered; restore a backup ` +
          `(${path}.bak-v*) or use the mnemo release that created this store.`,
        { details: { version: migration.version, path } },
      );
    }
  }
}

function backup(db: SqliteLike, path: string, from: number, clock: Clock): string {
  const target = backupTarget(path, `v${from}`, clock.now());
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } catch (error) {
    throw translateSqliteError(error, path);
  }
  return target;
}
