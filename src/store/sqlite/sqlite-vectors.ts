/**
 * Vector storage: one sqlite-vec `vec0` table per (model, dimension), registered in `vector_spaces` and
 * keyed by the memory's `seq`. Vectors of different models never share a table, so a query can only meet
 * vectors of its own model. A memory holds at most one vector per model: its sentence vector (named by
 * `memories.embedding_model`) and any number of extra ones (the word-vector leg's), each in its model's
 * space. Tables are created lazily inside the caller's write transaction.
 */
import type { MemoryVector } from '../../core/memory.js';
import { vectorBytes, vectorFromBytes } from '../write-rules.js';
import type { SqliteLike, SqliteValue } from './sqlite-like.js';
import type { MemoryRow } from './sqlite-rows.js';

/** What one vector write changed, for an in-memory mirror of the vec tables (sqlite-vector-mirror.ts). */
export type VectorChange =
  | { kind: 'put'; table: string; dims: number; seq: number; values: Float32Array }
  | { kind: 'delete'; table: string; seq: number }
  | { kind: 'drop'; table: string };

const observers = new WeakMap<SqliteLike, (change: VectorChange) => void>();

/**
 * Reports every vec-table change made through `db` to `observer` (undefined: stop). Called inside the
 * write transaction, before it commits: the observer must hold changes until the commit succeeds.
 */
export function observeVectorWrites(
  db: SqliteLike,
  observer: ((change: VectorChange) => void) | undefined,
): void {
  if (observer === undefined) observers.delete(db);
  else observers.set(db, observer);
}

function notify(db: SqliteLike, change: VectorChange): void {
  observers.get(db)?.(change);
}

interface SpaceRow {
  id: number;
  model: string;
  dims: number;
  table_name: string;
}

export function findSpace(db: SqliteLike, model: string, dims: number): string | undefined {
  const row = db
    .prepare('SELECT table_name FROM vector_spaces WHERE model = ? AND dims = ?')
    .get(model, dims) as Pick<SpaceRow, 'table_name'> | undefined;
  return row?.table_name;
}

function spacesOf(db: SqliteLike, model: string): SpaceRow[] {
  return db.prepare('SELECT * FROM vector_spaces WHERE model = ?').all(model) as SpaceRow[];
}

function ensureSpace(db: SqliteLike, model: string, dims: number): string {
  const existing = findSpace(db, model, dims);
  if (existing !== undefined) return existing;
  const { id } = db
    .prepare("INSERT INTO vector_spaces (model, dims, table_name) VALUES (?, ?, '') RETURNING id")
    .get(model, dims) as { id: number };
  const table = `vec_${id}`;
  db.prepare('UPDATE vector_spaces SET table_name = ? WHERE id = ?').run(table, id);
  // Table name and dims are integers we generated, never caller text.
  db.exec(
    `CREATE VIRTUAL TABLE ${table} USING vec0(embedding float[${dims}] distance_metric=cosine)`,
  );
  return table;
}

/** Removes every vector of memory `seq` stored under `model` (null: nothing stored). */
export function deleteVectors(db: SqliteLike, seq: number, model: string | null): void {
  if (model === null) return;
  for (const space of spacesOf(db, model)) {
    db.prepare(`DELETE FROM ${space.table_name} WHERE rowid = ?`).run(seq);
    notify(db, { kind: 'delete', table: space.table_name, seq });
  }
}

/** Removes every vector of memory `seq`, of every model (the memory is gone or its text changed). */
export function deleteAllVectors(db: SqliteLike, seq: number): void {
  const spaces = db.prepare('SELECT table_name FROM vector_spaces').all() as SpaceRow[];
  for (const space of spaces) {
    db.prepare(`DELETE FROM ${space.table_name} WHERE rowid = ?`).run(seq);
    notify(db, { kind: 'delete', table: space.table_name, seq });
  }
}

/** Stores an extra vector of `vector.model` for memory `seq`, replacing only that model's. */
export function putExtraVector(db: SqliteLike, seq: number, vector: MemoryVector): void {
  deleteVectors(db, seq, vector.model);
  insertVector(db, seq, vector);
}

function insertVector(db: SqliteLike, seq: number, vector: MemoryVector): void {
  const dims = vector.values.length;
  const table = ensureSpace(db, vector.model, dims);
  // vec0 accepts only INTEGER rowids and drivers bind JS numbers as REAL, hence the CAST.
  db.prepare(`INSERT INTO ${table} (rowid, embedding) VALUES (CAST(? AS INTEGER), ?)`).run(
    seq,
    Buffer.from(vectorBytes(vector.values)),
  );
  notify(db, { kind: 'put', table, dims, seq, values: vector.values });
}

/** Drops every space of `model`; memories whose sentence vector it was are left unembedded. */
export function deleteModel(db: SqliteLike, model: string): number {
  let removed = 0;
  for (const space of spacesOf(db, model)) {
    removed += (db.prepare(`SELECT count(*) AS n FROM ${space.table_name}`).get() as { n: number })
      .n;
    db.exec(`DROP TABLE ${space.table_name}`);
    notify(db, { kind: 'drop', table: space.table_name });
    db.prepare('DELETE FROM vector_spaces WHERE id = ?').run(space.id);
  }
  db.prepare('UPDATE memories SET embedding_model = NULL WHERE embedding_model = ?').run(model);
  return removed;
}

/** Stored vectors of `model` for the memories `ids` that have one. */
export function vectorsOf(
  db: SqliteLike,
  ids: readonly string[],
  model: string,
): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  for (const space of spacesOf(db, model)) {
    const rows = db
      .prepare(
        `SELECT m.id AS id, v.embedding AS embedding FROM memories m JOIN ${space.table_name} v
         ON v.rowid = m.seq WHERE m.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as { id: string; embedding: Uint8Array }[];
    for (const row of rows) out.set(row.id, vectorFromBytes(row.embedding));
  }
  return out;
}

/**
 * Rows matching `filter` that hold no vector of `model`, oldest first. The vector tables' rowids are
 * read once per query (`NOT IN`): a per-row `NOT EXISTS` probe of a vec0 table costs microseconds a row,
 * so a batch of the embedding backlog scanned every embedded row again (35 ms a batch at 10k memories,
 * the engine's event loop blocked meanwhile; 3 ms this way).
 */
export function unembeddedRows(
  db: SqliteLike,
  model: string,
  limit: number,
  filter: { sql: string; params: SqliteValue[] },
): MemoryRow[] {
  const tables = spacesOf(db, model).map((space) => space.table_name);
  const lacks =
    tables.length === 0
      ? '1'
      : tables.map((t) => `m.seq NOT IN (SELECT rowid FROM ${t})`).join(' AND ');
  return db
    .prepare(`SELECT m.* FROM memories m WHERE ${filter.sql} AND ${lacks} ORDER BY m.seq LIMIT ?`)
    .all(...filter.params, limit) as MemoryRow[];
}

/** Stores `vector` for memory `seq`, replacing whatever vector `currentModel` had stored. */
export function putVector(
  db: SqliteLike,
  seq: number,
  currentModel: string | null,
  vector: MemoryVector,
): void {
  deleteVectors(db, seq, currentModel);
  if (currentModel !== vector.model) deleteVectors(db, seq, vector.model);
  insertVector(db, seq, vector);
  db.prepare('UPDATE memories SET embedding_model = ? WHERE seq = ?').run(vector.model, seq);
}

export function readVector(
  db: SqliteLike,
  seq: number,
  model: string | null,
): { model: string; dims: number; values: number[] } | null {
  if (model === null) return null;
  for (const space of spacesOf(db, model)) {
    const row = db.prepare(`SELECT embedding FROM ${space.table_name} WHERE rowid = ?`).get(seq) as
      | { embedding: Uint8Array }
      | undefined;
    if (row !== undefined) {
      return { model, dims: space.dims, values: Array.from(vectorFromBytes(row.embedding)) };
    }
  }
  return null;
}

/** Row counts of every vec0 table, for stats and for tests that prove deletes reach the index. */
export function vectorCounts(db: SqliteLike): { model: string; dims: number; rows: number }[] {
  const spaces = db.prepare('SELECT * FROM vector_spaces ORDER BY id').all() as SpaceRow[];
  return spaces.map((space) => {
    const { n } = db.prepare(`SELECT count(*) AS n FROM ${space.table_name}`).get() as {
      n: number;
    };
    return { model: space.model, dims: space.dims, rows: n };
  });
}
