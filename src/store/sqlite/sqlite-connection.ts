/**
 * Per-connection settings every mnemo SQLite connection runs with (threat model S2, S3).
 */
import type { SqliteLike } from './sqlite-like.js';

/** Most of the database file mapped into memory (1 GiB; a 100k-memory store with vectors is ~0.3 GB). */
export const MMAP_SIZE_BYTES = 1 << 30;

/** Sets busy_timeout, WAL, synchronous=NORMAL, foreign_keys and mmap_size on a freshly opened connection. */
export function configureConnection(db: SqliteLike, busyTimeoutMs: number): void {
  // busy_timeout first: switching to WAL itself needs a lock another process may hold.
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL is safe against application crashes in WAL mode; only an OS crash or power loss can lose
  // the last commits, and never corrupts the file (https://sqlite.org/pragma.html#pragma_synchronous).
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  // Reads through memory-mapped pages instead of copying them through the 2 MB page cache: over a
  // 100k-memory store it more than halved the full-text and vector legs (docs/benchmarks.md, latency). Address
  // space only; pages are shared with the OS cache and with every other process on the file.
  db.exec(`PRAGMA mmap_size = ${MMAP_SIZE_BYTES}`);
}
