/**
 * One write transaction: `BEGIN IMMEDIATE` takes the write lock up front, so a transaction never fails
 * halfway with SQLITE_BUSY on its first write (busy_timeout applies to the BEGIN instead), and
 * concurrent hook processes queue instead of deadlocking on a read-to-write upgrade.
 */
import type { SqliteLike } from './sqlite-like.js';

/** Told where each write transaction on one connection starts and how it ends. */
export interface TransactionObserver {
  begin(): void;
  end(committed: boolean): void;
}

const observers = new WeakMap<SqliteLike, TransactionObserver>();

/** Reports every transaction `immediateTransaction` runs on `db` to `observer` (undefined: stop). */
export function observeTransactions(
  db: SqliteLike,
  observer: TransactionObserver | undefined,
): void {
  if (observer === undefined) observers.delete(db);
  else observers.set(db, observer);
}

/** Runs `work` then `beforeCommit` inside BEGIN IMMEDIATE … COMMIT; any throw rolls everything back. */
export function immediateTransaction<T>(
  db: SqliteLike,
  work: () => T,
  beforeCommit?: () => void,
): T {
  const observer = observers.get(db);
  db.exec('BEGIN IMMEDIATE');
  observer?.begin();
  let result: T;
  try {
    result = work();
    beforeCommit?.();
    db.exec('COMMIT');
  } catch (error) {
    try {
      rollback(db, error);
    } finally {
      observer?.end(false);
    }
    throw error;
  }
  observer?.end(true); // after COMMIT returned: what the observer applies is durable
  return result;
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
