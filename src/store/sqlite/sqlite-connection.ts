/**
 * Per-connection settings every mnemo SQLite connection runs with (threat model S2, S3).
 */
import type { SqliteLike } from './sqlite-like.js';

/** Sets busy_timeout, WAL, synchronous=NORMAL and foreign_keys on a freshly opened connection. */
export function configureConnection(db: SqliteLike, busyTimeoutMs: number): void {
  // busy_timeout first: switching to WAL itself needs a lock another process may hold.
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL is safe against application crashes in WAL mode; only an OS crash or power loss can lose
  // the last commits, and never corrupts the file (https://sqlite.org/pragma.html#pragma_synchronous).
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
}
