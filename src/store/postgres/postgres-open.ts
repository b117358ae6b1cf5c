/**
 * Opens the PostgreSQL store over any `PgLike` (a `pg` pool in production, PGlite in tests): migrates
 * the schema, finds or creates the extensions it can use (pgvector for HNSW vector search, pg_trgm for
 * the identifier leg's index) and says in `description.notes` what it could not, with the fix. Imports
 * no driver: open-postgres-store.ts wraps `pg` and calls this.
 */
import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/ids.js';
import type { MemoryStore } from '../store.js';
import { assertAuthor, type Author } from '../write-rules.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { SQLSTATE, sqlState, translatePostgresError } from './postgres-errors.js';
import { ensureLexicalIndex } from './postgres-lexical.js';
import { advisoryKey, LOCK_CLASS } from './postgres-locks.js';
import { migratePostgres } from './postgres-migrate.js';
import {
  PG_LEXICAL_INDEX_SINCE as LEXICAL_INDEX_SINCE,
  PG_MIGRATIONS,
  PG_VIEWS,
  type PgMigration,
} from './postgres-schema.js';
import { PostgresMemoryStore } from './postgres-store.js';

export interface OpenPostgresStoreOnOptions {
  db: PgLike;
  /** The store's schema: a plain lower-case identifier. */
  schema: string;
  /** Host, port and database without credentials, for messages. */
  where: string;
  clock: Clock;
  ids: IdSource;
  onBeforeCommit?: (action: string) => void;
  /** Tests of the upgrade path open with an older list; production always uses PG_MIGRATIONS. */
  migrations?: readonly PgMigration[];
  /** Fault-injection seam of the migrator. */
  onMigrationStep?: (version: number) => void;
  /** The writing process's identity: stamped on new memories, the default reader of scoped reads. */
  author?: Author;
  /**
   * For a process on a deadline (a hook): when the lexical index must be rebuilt over more than
   * `INLINE_REBUILD_MAX_ROWS` memories, throw STORE_BUSY instead, and leave the rebuild to the next
   * process without one (the engine, any command).
   */
  deferLongRebuild?: boolean;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `"${schema.slice(0, 80)}" is not a usable schema name: use lower-case letters, digits and _ ` +
        '(at most 63), starting with a letter, e.g. ?schema=mnemo in MNEMO_DATABASE_URL.',
    );
  }
}

interface Extensions {
  vector: string | null;
  trgm: string | null;
  notes: string[];
}

async function installed(db: PgQueryable, name: string): Promise<string | null> {
  const { rows } = await db.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = $1`,
    [name],
  );
  return rows[0]?.schema ?? null;
}

async function available(db: PgQueryable, name: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM pg_available_extensions WHERE name = $1', [name]);
  return rows.length > 0;
}

/** The extension's schema after creating it if the role may; null with a note when it cannot be had. */
async function ensureExtension(
  conn: PgQueryable,
  name: string,
  purpose: string,
  notes: string[],
): Promise<string | null> {
  const present = await installed(conn, name);
  if (present !== null) return present;
  if (!(await available(conn, name))) {
    notes.push(
      `${name} is not installed on this server: ${purpose}. Install the extension's package on the server to enable it.`,
    );
    return null;
  }
  try {
    await conn.exec(`CREATE EXTENSION IF NOT EXISTS ${name}`);
  } catch (error) {
    const code = sqlState(error);
    if (code !== SQLSTATE.insufficientPrivilege && code !== SQLSTATE.featureNotSupported)
      throw error;
    notes.push(
      `${name} is available but this role may not create it: ${purpose}. Ask an administrator to ` +
        `run \`CREATE EXTENSION ${name};\` in this database once.`,
    );
    return null;
  }
  return installed(conn, name);
}

async function indexExists(db: PgQueryable, schema: string, name: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2',
    [schema, name],
  );
  return rows.length > 0;
}

async function prepareExtensions(db: PgLike, schema: string): Promise<Extensions> {
  const vector = await installed(db, 'vector');
  const trgm = await installed(db, 'pg_trgm');
  if (
    vector !== null &&
    trgm !== null &&
    (await indexExists(db, schema, 'memories_content_trgm'))
  ) {
    return { vector, trgm, notes: [] };
  }
  // Creating extensions and indexes races between processes opening at once: serialise on the
  // migration lock of this schema.
  return db.withConnection(async (conn) => {
    const key = advisoryKey(schema);
    await conn.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS.migrate, key]);
    try {
      const notes: string[] = [];
      const v = await ensureExtension(
        conn,
        'vector',
        'vector search scans a prefiltered candidate set instead of an HNSW index',
        notes,
      );
      const t = await ensureExtension(
        conn,
        'pg_trgm',
        'code-term lookups scan rows instead of using a trigram index',
        notes,
      );
      if (t !== null && !(await indexExists(conn, schema, 'memories_content_trgm'))) {
        await conn.exec(
          `CREATE INDEX IF NOT EXISTS memories_content_trgm ON memories USING gin (lower(content) ${t}.gin_trgm_ops)`,
        );
      }
      return { vector: v, trgm: t, notes };
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS.migrate, key]);
    }
  });
}

/**
 * Opens (creating or migrating as needed) the store in `options.schema`. Throws STORE_UNAVAILABLE with
 * the fix for an unreachable server, a refused login, a missing database or missing rights;
 * SCHEMA_TOO_NEW, MIGRATION_FAILED as the migrator does. Closes `db` when it fails.
 */
export async function openPostgresStoreOn(
  options: OpenPostgresStoreOnOptions,
): Promise<MemoryStore> {
  const { db, schema, where } = options;
  try {
    assertSchemaName(schema);
    assertAuthor(options.author);
    const report = await migratePostgres(db, {
      schema,
      where,
      clock: options.clock,
      migrations: options.migrations ?? PG_MIGRATIONS,
      views: PG_VIEWS,
      ...(options.onMigrationStep === undefined ? {} : { onStep: options.onMigrationStep }),
    });
    // The lexical index is built in code (core's analyser): right after the v5 migration, or when the
    // analyser or the context rule changed.
    if (report.to >= LEXICAL_INDEX_SINCE) {
      await ensureLexicalIndex(
        db,
        schema,
        options.deferLongRebuild === true ? { where } : undefined,
      );
    }
    const extensions = await prepareExtensions(db, schema);
    return new PostgresMemoryStore({
      db,
      where,
      schema,
      clock: options.clock,
      ids: options.ids,
      schemaVersion: report.to,
      vectors: { schema: extensions.vector },
      description: {
        backend: 'postgres',
        location: `${where} (schema ${schema})`,
        notes: [
          extensions.vector === null
            ? 'vectors: portable fallback (float32 bytes, scored over a prefiltered candidate set)'
            : 'vectors: pgvector with HNSW cosine indexes',
          ...extensions.notes,
        ],
      },
      onBeforeCommit: options.onBeforeCommit,
      author: options.author,
    });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw translatePostgresError(error, where);
  }
}
