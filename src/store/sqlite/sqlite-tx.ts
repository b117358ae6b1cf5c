/**
 * One write transaction: `BEGIN IMMEDIATE` takes the write lock up front, so a transaction never fails
 * halfway with SQLITE_BUSY on its first write (busy_timeout applies to the BEGIN instead), and
 * concurrent hook processes queue instead of deadlocking on a read-to-write upgrade.
 */
import type { SqliteLike } from './sqlite-like.js';

/** Runs `work` then `beforeCommit` inside BEGIN IMMEDIATE … COMMIT; any throw rolls everything back. */
export function immediateTransaction<T>(
  db: SqliteLike,
  work: () => T,
  beforeCommit?: () => void,
): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    beforeCommit?.();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    rollback(db, error);
    throw error;
  }
}

function rollback(db: SqliteLike, original: unknown): void {
  try {
    db.exec('ROLLBACK');
  } catch (rollbackError) {
    // SQLite rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR, ...); only then is
    // there nothing left to roll back. Any other rollback failure must not hide the original error.
    if (!/no transaction is active/i.test((rollbackError as Error).message)) {
      throw new AggregateError([original, rollbackError], 'Rollback failed after an error');
    }
  }
}
