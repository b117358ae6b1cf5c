/**
 * Opens the PostgreSQL memory store: the only module that imports `pg`. It builds a connection pool for
 * a `postgres://` URL (the store's schema from `?schema=`, default `mnemo`), wraps it as a `PgLike` and
 * hands it to `openPostgresStoreOn`. The pool never crashes the process when the server goes away: an
 * idle connection's error is logged by the pool's handler, and the next query reports STORE_UNAVAILABLE.
 */
import pg from 'pg';

import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import { ulidSource } from '../default-ids.js';
import type { MemoryStore } from '../store.js';
import type { Author } from '../write-rules.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { assertSchemaName, openPostgresStoreOn } from './postgres-open.js';
import type { PgMigration } from './postgres-schema.js';

export interface OpenPostgresStoreOptions {
  /** `postgres://user:password@host:port/database?schema=mnemo&sslmode=require`. */
  url: string;
  clock?: Clock;
  ids?: IdSource;
  /** How long a statement waits for a lock, and a connection for the server, before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** Connections per process. Default 4: hooks use one, the engine and MCP server a few. */
  poolSize?: number;
  onBeforeCommit?: (action: string) => void;
  /** The writing process's identity: stamped on new memories, the default reader of scoped reads. */
  author?: Author;
  /** Tests of the upgrade path open with another migration list; production uses the released one. */
  migrations?: readonly PgMigration[];
  /** Told about errors of idle connections (the server went away); default: ignored until the next query. */
  onIdleError?: (error: Error) => void;
  /** For a process on a deadline (a hook): see `OpenPostgresStoreOnOptions.deferLongRebuild`. */
  deferLongRebuild?: boolean;
}

export const DEFAULT_SCHEMA = 'mnemo';
export const DEFAULT_POOL_SIZE = 4;

const wallClock: Clock = { now: () => new Date() };

/** The URL split into what pg takes and the store's own settings, and a printable location without secrets. */
export function parseDatabaseUrl(url: string): {
  connectionString: string;
  schema: string;
  where: string;
} {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MemoryError(
      'CONFIG_INVALID',
      'The database URL is not a URL. Use postgres://user:password@host:5432/database (MNEMO_DATABASE_URL or "databaseUrl").',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new MemoryError(
      'CONFIG_INVALID',
      `The database URL must start with postgres:// or postgresql://, not ${parsed.protocol}//.`,
    );
  }
  const schema = parsed.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  parsed.searchParams.delete('schema');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
  const where = `postgres://${parsed.host || 'localhost'}/${database}`;
  return { connectionString: parsed.toString(), schema, where };
}

/** `pool` as the adapter's `PgLike`: a transaction holds one client, released destroyed when it failed. */
export function poolAsPgLike(pool: pg.Pool): PgLike {
  const queryable = (client: pg.Pool | pg.PoolClient): PgQueryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const result = await client.query(sql, params === undefined ? undefined : [...params]);
      return { rows: result.rows as R[], rowCount: result.rowCount };
    },
    exec: async (sql) => {
      await client.query(sql);
    },
  });
  return {
    ...queryable(pool),
    withConnection: async (work) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A checked-out client has no listener of its own: without one, the server going away between
      // two statements of a transaction would be an uncaught 'error' event and end the process.
      const onError = (error: Error): void => {
        broken = error;
      };
      client.on('error', onError);
      try {
        return await work(queryable(client));
      } catch (error) {
        // A connection that failed mid-transaction may be unusable: release it destroyed.
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Opens (creating or migrating as needed) the store the URL names. Throws CONFIG_INVALID for a bad URL
 * or schema name, and what `openPostgresStoreOn` throws.
 */
export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<MemoryStore> {
  const { connectionString, schema, where } = parseDatabaseUrl(options.url);
  // Validated before it enters the connection's startup options.
  assertSchemaName(schema);
  const timeout = Math.max(1000, options.busyTimeoutMs ?? 5000);
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: timeout,
    idleTimeoutMillis: 10_000,
    application_name: 'mnemo',
    // The store lives in its own schema; extension objects are always schema-qualified.
    options: `-c search_path=${schema} -c lock_timeout=${timeout}`,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  const clock = options.clock ?? wallClock;
  return openPostgresStoreOn({
    db: poolAsPgLike(pool),
    schema,
    where,
    clock,
    ids: options.ids ?? ulidSource(clock),
    ...(options.onBeforeCommit === undefined ? {} : { onBeforeCommit: options.onBeforeCommit }),
    ...(options.author === undefined ? {} : { author: options.author }),
    ...(options.migrations === undefined ? {} : { migrations: options.migrations }),
    ...(options.deferLongRebuild === true ? { deferLongRebuild: true } : {}),
  });
}
