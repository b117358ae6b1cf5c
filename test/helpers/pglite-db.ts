/**
 * PGlite (PostgreSQL 18 in WASM, in process) with pgvector and pg_trgm, seen through the adapter's
 * `PgLike` interface: the pgvector/HNSW path of the PostgreSQL store runs on it. One instance is costly
 * (seconds to start, ~700 MB), so a test file shares one, and each store gets its own schema on it.
 *
 * PGlite has a single connection: every handle serialises its statements on one queue, and sets its
 * own search_path before each turn, so stores on different schemas of one instance never see each
 * other's tables.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';

import type { PgLike, PgQueryable } from '../../src/store/postgres/pg-like.js';

export interface SharedPglite {
  readonly instance: PGlite;
  /** A PgLike whose statements run with `search_path` = `schema`; closing it leaves the instance open. */
  handle(schema: string): PgLike;
  close(): Promise<void>;
}

export async function startPglite(): Promise<SharedPglite> {
  const instance = await PGlite.create({ extensions: { vector, pg_trgm } });
  let queue: Promise<unknown> = Promise.resolve();
  let currentPath = '';
  // Runs `work` alone on the connection, after switching search_path when needed.
  const turn = <T>(schema: string, work: (db: PgQueryable) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      if (currentPath !== schema) {
        await instance.exec(`SET search_path TO ${schema}`);
        currentPath = schema;
      }
      return work(raw);
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  const raw: PgQueryable = {
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const result = await instance.query<R>(sql, params === undefined ? [] : [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? null };
    },
    exec: async (sql) => {
      await instance.exec(sql);
    },
  };
  return {
    instance,
    handle: (schema) => {
      let closed = false;
      const guard = (): void => {
        if (closed) throw new Error('PGlite handle is closed');
      };
      return {
        query: (sql, params) => {
          guard();
          return turn(schema, (db) => db.query(sql, params));
        },
        exec: (sql) => {
          guard();
          return turn(schema, (db) => db.exec(sql));
        },
        withConnection: (work) => {
          guard();
          return turn(schema, work);
        },
        close: () => {
          closed = true;
          return Promise.resolve();
        },
      };
    },
    close: () => instance.close(),
  };
}
