/**
 * Vector storage: one table per (model, dimension), registered in `vector_spaces` and keyed by the
 * memory's seq (ON DELETE CASCADE), so a query only ever meets vectors of its own model. A space is
 * stored one of two ways, chosen when it is created:
 * - `pgvector`: a `vector(dims)` column with an HNSW cosine index (m = 16, ef_construction = 64, the
 *   pgvector defaults), when the `vector` extension is installed;
 * - `bytea`: the float32 bytes (4 bytes a dimension, no index), scored in the adapter over a
 *   scope-prefiltered candidate set when it is not (`capabilities.vectorIndex` is false).
 * Tables are created lazily, the first time a write needs one, in a transaction of their own
 * (`VectorSpaceMissing`, `createSpace`).
 */
import type { MemoryVector } from '../../core/memory.js';
import { vectorBytes, vectorFromBytes } from '../write-rules.js';
import type { PgQueryable } from './pg-like.js';
import { advisoryKey, LOCK_CLASS } from './postgres-locks.js';

/** Where the pgvector extension lives, or null when it is not installed. */
export interface VectorSupport {
  schema: string | null;
}

export interface VectorSpace {
  id: number;
  model: string;
  dims: number;
  table: string;
  storage: 'pgvector' | 'bytea';
}

interface SpaceRow {
  id: number;
  model: string;
  dims: number;
  table_name: string;
  storage: 'pgvector' | 'bytea';
}

function toSpace(row: SpaceRow): VectorSpace {
  return {
    id: Number(row.id),
    model: row.model,
    dims: Number(row.dims),
    table: row.table_name,
    storage: row.storage,
  };
}

/** The pgvector literal of `values` ('[0.5,1,...]'); float32 values print exactly as doubles. */
export function vectorLiteral(values: Float32Array): string {
  return `[${Array.from(values, (v) => (v === 0 ? 0 : v)).join(',')}]`;
}

/** pgvector's cosine-distance operator, qualified so it resolves whatever the search_path. */
export function cosineOperator(support: VectorSupport): string {
  return `OPERATOR(${support.schema ?? 'public'}.<=>)`;
}

export async function findSpace(
  db: PgQueryable,
  model: string,
  dims: number,
): Promise<VectorSpace | undefined> {
  const { rows } = await db.query<SpaceRow>(
    'SELECT id, model, dims, table_name, storage FROM vector_spaces WHERE model = $1 AND dims = $2',
    [model, dims],
  );
  return rows[0] === undefined ? undefined : toSpace(rows[0]);
}

export async function listSpaces(db: PgQueryable, model?: string): Promise<VectorSpace[]> {
  const { rows } =
    model === undefined
      ? await db.query<SpaceRow>(
          'SELECT id, model, dims, table_name, storage FROM vector_spaces ORDER BY id',
        )
      : await db.query<SpaceRow>(
          'SELECT id, model, dims, table_name, storage FROM vector_spaces WHERE model = $1 ORDER BY id',
          [model],
        );
  return rows.map(toSpace);
}

/**
 * Thrown by a write that needs a vector space nobody has created yet. The write cannot create it
 * itself: `CREATE TABLE ... REFERENCES memories` waits for every other writer's open transaction,
 * and a writer that has inserted its memory and then needs the same new space waits for this one,
 * so concurrent first writers of a model deadlock each other over and over. `runWrite` rolls the
 * write back, has `createSpace` make the space in a transaction of its own, and runs the write again.
 */
export class VectorSpaceMissing extends Error {
  constructor(
    readonly model: string,
    readonly dims: number,
  ) {
    super(`No vector space for ${model} (${dims} dimensions) yet.`);
    this.name = 'VectorSpaceMissing';
  }
}

async function spaceFor(db: PgQueryable, model: string, dims: number): Promise<VectorSpace> {
  const existing = await findSpace(db, model, dims);
  if (existing === undefined) throw new VectorSpaceMissing(model, dims);
  return existing;
}

/**
 * Creates the space of (`model`, `dims`) unless it exists, in a transaction of its own on `conn`
 * that holds nothing else. Creators queue on one advisory lock per store schema (postgres-locks.ts),
 * so the second finds the first's space instead of racing it on UNIQUE (model, dims).
 */
export async function createSpace(
  conn: PgQueryable,
  support: VectorSupport,
  schema: string,
  space: { model: string; dims: number },
): Promise<void> {
  const { model, dims } = space;
  await conn.query('BEGIN');
  try {
    await conn.query('SELECT pg_advisory_xact_lock($1, $2)', [
      LOCK_CLASS.vectorSpace,
      advisoryKey(schema),
    ]);
    if ((await findSpace(conn, model, dims)) === undefined) {
      await insertSpace(conn, support, model, dims);
    }
    await conn.query('COMMIT');
  } catch (error) {
    await conn.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function insertSpace(
  db: PgQueryable,
  support: VectorSupport,
  model: string,
  dims: number,
): Promise<void> {
  const storage = support.schema === null ? 'bytea' : 'pgvector';
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO vector_spaces (model, dims, table_name, storage)
     VALUES ($1, $2, 'pending-' || md5(random()::text), $3) RETURNING id`,
    [model, dims, storage],
  );
  const id = Number(rows[0]?.id);
  const table = `vec_${id}`;
  await db.query('UPDATE vector_spaces SET table_name = $1 WHERE id = $2', [table, id]);
  // Table name and dims are integers we generated, never caller text.
  if (storage === 'pgvector') {
    const ext = support.schema;
    await db.exec(
      `CREATE TABLE ${table} (seq bigint PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
         embedding ${ext}.vector(${dims}) NOT NULL);
       CREATE INDEX ${table}_hnsw ON ${table} USING hnsw (embedding ${ext}.vector_cosine_ops)
         WITH (m = 16, ef_construction = 64);`,
    );
  } else {
    await db.exec(
      `CREATE TABLE ${table} (seq bigint PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
         embedding bytea NOT NULL CHECK (length(embedding) = ${dims * 4}))`,
    );
  }
}

/** Removes every vector of memory `seq` stored under `model` (null: nothing stored). */
export async function deleteVectors(
  db: PgQueryable,
  seq: number,
  model: string | null,
): Promise<void> {
  if (model === null) return;
  for (const space of await listSpaces(db, model)) {
    await db.query(`DELETE FROM ${space.table} WHERE seq = $1`, [seq]);
  }
}

/** Removes every vector of memory `seq`, of every model (its text changed). */
export async function deleteAllVectors(db: PgQueryable, seq: number): Promise<void> {
  for (const space of await listSpaces(db)) {
    await db.query(`DELETE FROM ${space.table} WHERE seq = $1`, [seq]);
  }
}

/** Stores an extra vector of `vector.model` for memory `seq`, replacing only that model's. */
export async function putExtraVector(
  db: PgQueryable,
  support: VectorSupport,
  seq: number,
  vector: MemoryVector,
): Promise<void> {
  await deleteVectors(db, seq, vector.model);
  const space = await spaceFor(db, vector.model, vector.values.length);
  const cast = space.storage === 'pgvector' ? `::${support.schema}.vector` : '';
  await db.query(`INSERT INTO ${space.table} (seq, embedding) VALUES ($1, $2${cast})`, [
    seq,
    columnValue(space, vector.values),
  ]);
}

/** Drops every space of `model`; memories whose sentence vector it was are left unembedded. */
export async function deleteModel(db: PgQueryable, model: string): Promise<number> {
  let removed = 0;
  for (const space of await listSpaces(db, model)) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${space.table}`);
    removed += Number(rows[0]?.n ?? 0);
    await db.exec(`DROP TABLE ${space.table}`);
    await db.query('DELETE FROM vector_spaces WHERE id = $1', [space.id]);
  }
  await db.query('UPDATE memories SET embedding_model = NULL WHERE embedding_model = $1', [model]);
  return removed;
}

/** Stored vectors of `model` for the memories `ids` that have one. */
export async function vectorsOf(
  db: PgQueryable,
  ids: readonly string[],
  model: string,
): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const space of await listSpaces(db, model)) {
    const { rows } = await db.query<{ id: string; embedding: unknown }>(
      `SELECT m.id AS id, ${embeddingRead(space)} AS embedding FROM memories m
       JOIN ${space.table} v ON v.seq = m.seq WHERE m.id = ANY($1::text[])`,
      [[...ids]],
    );
    for (const row of rows) out.set(row.id, valuesOf(space, row.embedding));
  }
  return out;
}

/** The SQL condition "memory `m` holds no vector of `model`" over its spaces. */
export async function lacksVectorSql(db: PgQueryable, model: string): Promise<string> {
  const tables = (await listSpaces(db, model)).map((space) => space.table);
  return tables.length === 0
    ? 'true'
    : tables.map((t) => `NOT EXISTS (SELECT 1 FROM ${t} v WHERE v.seq = m.seq)`).join(' AND ');
}

/** The bound value of `values` for a space's column. */
export function columnValue(space: VectorSpace, values: Float32Array): unknown {
  return space.storage === 'pgvector' ? vectorLiteral(values) : Buffer.from(vectorBytes(values));
}

/** Stores `vector` for memory `seq`, replacing whatever vector `currentModel` had stored. */
export async function putVector(
  db: PgQueryable,
  support: VectorSupport,
  seq: number,
  currentModel: string | null,
  vector: MemoryVector,
): Promise<void> {
  await deleteVectors(db, seq, currentModel);
  if (currentModel !== vector.model) await deleteVectors(db, seq, vector.model);
  const space = await spaceFor(db, vector.model, vector.values.length);
  const cast = space.storage === 'pgvector' ? `::${support.schema}.vector` : '';
  await db.query(`INSERT INTO ${space.table} (seq, embedding) VALUES ($1, $2${cast})`, [
    seq,
    columnValue(space, vector.values),
  ]);
  await db.query('UPDATE memories SET embedding_model = $1 WHERE seq = $2', [vector.model, seq]);
}

/** The float32 values of a stored embedding, whichever the storage. */
export function valuesOf(space: VectorSpace, stored: unknown): Float32Array {
  if (space.storage === 'bytea') return vectorFromBytes(stored as Uint8Array);
  return Float32Array.from(JSON.parse(String(stored)) as number[]);
}

/** The column expression that reads an embedding back in the form `valuesOf` takes. */
export function embeddingRead(space: VectorSpace, alias = 'v'): string {
  return space.storage === 'pgvector' ? `${alias}.embedding::text` : `${alias}.embedding`;
}

export async function readVector(
  db: PgQueryable,
  seq: number,
  model: string | null,
): Promise<{ model: string; dims: number; values: number[] } | null> {
  if (model === null) return null;
  for (const space of await listSpaces(db, model)) {
    const { rows } = await db.query<{ embedding: unknown }>(
      `SELECT ${embeddingRead(space)} AS embedding FROM ${space.table} v WHERE v.seq = $1`,
      [seq],
    );
    if (rows[0] !== undefined) {
      return { model, dims: space.dims, values: Array.from(valuesOf(space, rows[0].embedding)) };
    }
  }
  return null;
}

/** Row counts of every space table, for stats and for tests that prove deletes reach the index. */
export async function vectorCounts(
  db: PgQueryable,
): Promise<{ model: string; dims: number; rows: number }[]> {
  const out: { model: string; dims: number; rows: number }[] = [];
  for (const space of await listSpaces(db)) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${space.table}`);
    out.push({ model: space.model, dims: space.dims, rows: Number(rows[0]?.n ?? 0) });
  }
  return out;
}
