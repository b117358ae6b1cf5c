/**
 * The slice of a PostgreSQL client the adapter uses. `pg`'s Pool fits it (open-postgres-store.ts) and so
 * does PGlite, the in-process PostgreSQL the tests run the pgvector path on, so the adapter never knows
 * which one it talks to (architecture §2.5, Kysely's `DatabaseConnection` idea).
 */

export interface PgResult<R> {
  rows: R[];
  /** Rows written by INSERT/UPDATE/DELETE, when the driver tells. */
  rowCount: number | null;
}

export interface PgQueryable {
  /** One statement with `$n` parameters. */
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<PgResult<R>>;
  /** A script of several statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
}

export interface PgLike extends PgQueryable {
  /**
   * Runs `work` on one connection held for its whole duration: what a transaction, `SET LOCAL` or a
   * session-level advisory lock needs. Statements outside it may run on any connection.
   */
  withConnection<T>(work: (connection: PgQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
