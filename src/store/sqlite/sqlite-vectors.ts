/**
 * Vector storage: one sqlite-vec `vec0` table per (model, dimension), registered in `vector_spaces` and
 * keyed by the memory's `seq`. Vectors of different models never share a table, so a query can only meet
 * vectors of its own model. Tables are created lazily inside the caller's write transaction.
 */
import type { MemoryVector } from '../../core/memory.js';
import { vectorBytes, vectorFromBytes } from '../write-rules.js';
import type { SqliteLike } from './sqlite-like.js';

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
  }
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
  const table = ensureSpace(db, vector.model, vector.values.length);
  // vec0 accepts only INTEGER rowids and drivers bind JS numbers as REAL, hence the CAST.
  db.prepare(`INSERT INTO ${table} (rowid, embedding) VALUES (CAST(? AS INTEGER), ?)`).run(
    seq,
    Buffer.from(vectorBytes(vector.values)),
  );
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
