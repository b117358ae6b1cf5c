/**
 * The slice of a synchronous SQLite driver the adapter uses. `better-sqlite3` fits it today and
 * `node:sqlite` (`DatabaseSync`, Node >= 22.5) fits it too, so swapping drivers touches only
 * `open-sqlite-store.ts` (threat model, principle 12).
 */

/** A value SQLite can bind. Booleans are not accepted by every driver: pass 0/1. */
export type SqliteValue = string | number | bigint | null | Uint8Array;

export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

export interface SqliteStatement {
  run(...params: SqliteValue[]): SqliteRunResult;
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
}

export interface SqliteLike {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  close(): unknown;
}
