/**
 * Opens the SQLite memory store: the only module that imports `better-sqlite3` and `sqlite-vec` (their
 * native files found by sqlite-native.ts). It
 * creates the directory (0700) and file (0600) if missing, sets the PRAGMAs, loads sqlite-vec, applies
 * migrations (backup first, older pre-migration backups rotated) and hands a `SqliteLike` to
 * `SqliteMemoryStore`. `connectSqlite` gives the backups (sqlite-backup.ts) a bare connection. Replacing
 * the driver with `node:sqlite` means changing this file only.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import Database from 'better-sqlite3';

import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import { ulidSource } from '../default-ids.js';
import { INLINE_REBUILD_MAX_ROWS, longRebuildRefused } from '../lexical-rules.js';
import type { MemoryStore } from '../store.js';
import { assertAuthor, type Author } from '../write-rules.js';
import { rotateBackups } from './sqlite-backup-files.js';
import { configureConnection } from './sqlite-connection.js';
import { translateSqliteError } from './sqlite-errors.js';
import { ensureLexicalIndex, lexicalIndexStale } from './sqlite-lexical.js';
import type { SqliteLike, SqliteValue } from './sqlite-like.js';
import { migrate } from './sqlite-migrate.js';
import { loadVecThroughPackage, nativeFiles } from './sqlite-native.js';
import { MIGRATIONS, VIEWS } from './sqlite-schema.js';
import { SqliteMemoryStore } from './sqlite-store.js';
import { immediateTransaction } from './sqlite-tx.js';
import { SqliteVectorMirror } from './sqlite-vector-mirror.js';

export interface OpenSqliteStoreOptions {
  /** Database file. Its directory is created (mode 0700) when missing. */
  path: string;
  /** Defaults to the wall clock. */
  clock?: Clock;
  /** Defaults to a monotonic ULID factory driven by `clock`. */
  ids?: IdSource;
  /** How long a write waits for another process's lock before STORE_BUSY. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Fault-injection seam for tests: called inside every write transaction just before COMMIT with the
   * action name ('remember', 'supersede', 'update', 'forget', 'access', 'set-vector', 'import',
   * 'quarantine', 'merge', 'cluster', 'taint', 'untaint', 'claim', 'take-claim', 'counter', 'inject').
   * Throwing rolls the whole transaction back.
   */
  onBeforeCommit?: (action: string) => void;
  /** The writing process's identity: stamped on new memories, the default reader of scoped reads. */
  author?: Author;
  /** The portable key of a stored path key, for the schema v5 backfill (project/project-key.ts). */
  rekeyProject?: (key: string) => string | undefined;
  /**
   * Hold every vector space in memory for the vector leg (sqlite-vector-mirror.ts): for a long-lived
   * process (the engine). Loads in the background after open; off by default, so a one-shot command
   * never pays the load.
   */
  residentVectors?: boolean;
  /** Where the resident mirror reports that it gave up (searches stay exact through vec0). */
  onVectorMirrorError?: (what: string, error: unknown) => void;
  /**
   * For a process on a deadline (a hook): when the lexical index must be rebuilt over more than
   * `INLINE_REBUILD_MAX_ROWS` memories (a new analyser or context rule), throw STORE_BUSY instead of
   * rebuilding, and leave the rebuild to the next process without one (the engine, any command).
   */
  deferLongRebuild?: boolean;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const wallClock: Clock = { now: () => new Date() };

/**
 * Opens (creating or migrating as needed) the store at `options.path`. Throws STORE_CORRUPT for a
 * damaged or non-database file, SCHEMA_TOO_NEW for a store written by a newer mnemo, MIGRATION_FAILED
 * when an upgrade step fails (the file stays at its previous version), STORE_BUSY when locked.
 */
export function openSqliteStore(options: OpenSqliteStoreOptions): Promise<MemoryStore> {
  try {
    return Promise.resolve(openStore(options));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

// Synchronous underneath: better-sqlite3 has no async API, and the port's promise is kept only so a
// future asynchronous driver fits the same signature.
function openStore(options: OpenSqliteStoreOptions): SqliteMemoryStore {
  // ':memory:' is SQLite's in-memory name, not a file to create (handy for throwaway tools only: it
  // hides WAL and locking, so tests use real files).
  const onDisk = options.path !== ':memory:';
  const path = onDisk ? resolve(options.path) : options.path;
  const clock = options.clock ?? wallClock;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (onDisk) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const created = onDisk && !existsSync(path);
  let db: SqliteLike;
  try {
    db = connectSqlite(path, { timeoutMs: busyTimeoutMs });
  } catch (error) {
    throw translateSqliteError(error, path);
  }
  try {
    // Memories can hold private notes; SQLite gives -wal/-shm the main file's permissions.
    if (created) chmodSync(path, 0o600);
    configureConnection(db, busyTimeoutMs);
    assertAuthor(options.author);
    const report = migrate(db, {
      path,
      clock,
      migrations: MIGRATIONS,
      views: VIEWS,
      rekeyProject: options.rekeyProject,
    });
    if (report.backupPath !== null) rotateBackups(path);
    // The lexical index is built in code (core's analyser): right after the v8 migration, or when the
    // analyser or the context rule changed. Once per store; re-checked under the write lock.
    if (lexicalIndexStale(db)) {
      if (options.deferLongRebuild === true) refuseLongRebuild(db, path);
      immediateTransaction(db, () => ensureLexicalIndex(db));
    }
    const mirror =
      options.residentVectors === true
        ? new SqliteVectorMirror(db, { onError: options.onVectorMirrorError })
        : undefined;
    mirror?.start();
    return new SqliteMemoryStore({
      db,
      path,
      clock,
      ids: options.ids ?? ulidSource(clock),
      schemaVersion: report.to,
      onBeforeCommit: options.onBeforeCommit,
      author: options.author,
      mirror,
    });
  } catch (error) {
    db.close();
    throw translateSqliteError(error, path);
  }
}

/**
 * Throws STORE_BUSY when rebuilding the lexical index would take a process on a deadline too long: about
 * 0.1 ms a memory (`docs/benchmarks.md`, 100,000 memories in 10 s), and synchronous, so a hook's deadline
 * could not cut it short.
 */
function refuseLongRebuild(db: SqliteLike, path: string): void {
  const { rows } = db.prepare('SELECT count(*) AS rows FROM memories').get() as { rows: number };
  if (rows > INLINE_REBUILD_MAX_ROWS) throw longRebuildRefused(path, rows);
}

export interface ConnectOptions {
  /** How long a statement waits for another process's lock (ms). */
  timeoutMs?: number;
  /** Refuse writes on this connection (backups read the live store this way). */
  readonly?: boolean;
  /** Fail instead of creating a missing file. */
  fileMustExist?: boolean;
}

/**
 * Opens `path` (created unless `fileMustExist`/`readonly`) with sqlite-vec loaded. Throws driver errors.
 * The native files are the ones the packages would load, found directly where possible
 * (sqlite-native.ts).
 */
export function connectSqlite(path: string, options: ConnectOptions = {}): SqliteLike {
  const native = nativeFiles();
  const raw = new Database(path, {
    timeout: options.timeoutMs ?? 5000,
    readonly: options.readonly === true,
    fileMustExist: options.fileMustExist === true || options.readonly === true,
    ...(native.driver === undefined ? {} : { nativeBinding: native.driver }),
  });
  try {
    if (native.vec === undefined) loadVecThroughPackage(raw);
    else raw.loadExtension(native.vec);
  } catch (error) {
    raw.close();
    throw error;
  }
  return asSqliteLike(raw);
}

// Statements are reused by SQL text: preparing costs more than running most of ours. The cache is
// bounded by the number of distinct SQL strings the adapter builds (filters vary by which clauses are
// present, not by values), with a cap as a backstop.
const STATEMENT_CACHE_LIMIT = 500;

function asSqliteLike(raw: Database.Database): SqliteLike {
  const cache = new Map<string, Database.Statement<SqliteValue[], unknown>>();
  return {
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = raw.prepare<SqliteValue[], unknown>(sql);
        if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
        cache.set(sql, statement);
      }
      return statement;
    },
    exec: (sql) => raw.exec(sql),
    close: () => {
      cache.clear();
      raw.close();
    },
  };
}
