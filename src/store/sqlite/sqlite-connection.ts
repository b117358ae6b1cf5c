/**
 * Per-connection settings every mnemo SQLite connection runs with (threat model S2, S3).
 */
import { isBusyError } from './sqlite-errors.js';
import type { SqliteLike } from './sqlite-like.js';

/** Most of the database file mapped into memory (1 GiB; a 100k-memory store with vectors is ~0.3 GB). */
export const MMAP_SIZE_BYTES = 1 << 30;

/** Sets busy_timeout, WAL, synchronous=NORMAL, foreign_keys and mmap_size on a freshly opened connection. */
export function configureConnection(db: SqliteLike, busyTimeoutMs: number): void {
  // busy_timeout first: switching to WAL itself needs a lock another process may hold.
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  switchToWal(db, busyTimeoutMs);
  // NORMAL is safe against application crashes in WAL mode; only an OS crash or power loss can lose
  // the last commits, and never corrupts the file (https://sqlite.org/pragma.html#pragma_synchronous).
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  // Reads through memory-mapped pages instead of copying them through the 2 MB page cache: over a
  // 100k-memory store it more than halved the full-text and vector legs (docs/benchmarks.md, latency). Address
  // space only; pages are shared with the OS cache and with every other process on the file.
  db.exec(`PRAGMA mmap_size = ${MMAP_SIZE_BYTES}`);
}

/**
 * Switching a rollback-journal file to WAL returns SQLITE_BUSY at once while another connection writes,
 * without waiting on busy_timeout (measured: 1 ms). A process opening a fresh store beside a writer would
 * then fail; so the switch is retried with a short backoff until the same busy timeout has passed.
 */
function switchToWal(db: SqliteLike, busyTimeoutMs: number): void {
  const deadline = Date.now() + Math.max(0, busyTimeoutMs);
  let pauseMs = 1;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
      sleepSync(Math.min(pauseMs, Math.max(1, deadline - Date.now())));
      pauseMs = Math.min(pauseMs * 2, 50);
    }
  }
}

// Connections are opened synchronously; a blocking wait keeps that contract without spinning the CPU.
let sleepCell: Int32Array | undefined;
function sleepSync(ms: number): void {
  sleepCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleepCell, 0, 0, ms);
}
