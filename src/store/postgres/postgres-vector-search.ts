/**
 * Nearest-neighbour search over one vector space. With pgvector: the HNSW index oversampled before the
 * scope filter, then an exact scan of the in-scope rows when the filter left fewer than `limit` (the
 * same shape as SQLite's vec0 path). Without it: exact cosine in the adapter over the in-scope rows when
 * there are at most FULL_SCAN_ROWS of them, else over the caller's lexical candidates plus the newest
 * in-scope rows (the fallback's documented limit: docs/scaling.md).
 */
import type { MemoryVector } from '../../core/memory.js';
import type { SearchOptions, VectorHit } from '../store.js';
import type { PgLike } from './pg-like.js';
import { buildFilter, Params } from './postgres-search.js';
import {
  columnValue,
  cosineOperator,
  embeddingRead,
  findSpace,
  valuesOf,
  type VectorSpace,
  type VectorSupport,
} from './postgres-vectors.js';

/**
 * In-scope rows the fallback scores exactly. Scoring is ~18 ms per 1,000 512-d vectors here, fetch
 * included (docs/scaling.md); past this the scope is prefiltered by the lexical candidates.
 */
export const FULL_SCAN_ROWS = 10_000;
/** Newest in-scope rows scored beside the lexical candidates once the scope is larger than that. */
export const RECENT_ROWS = 2_000;
/** pgvector allows ef_search <= 1000. */
const MAX_EF_SEARCH = 1000;

/** Cosine distance in float64 over float32 inputs, in [0, 2]. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
}

export async function searchVectorIn(
  db: PgLike,
  support: VectorSupport,
  vector: MemoryVector,
  options: SearchOptions,
): Promise<VectorHit[]> {
  const limit = Math.floor(options.limit);
  const space = await findSpace(db, vector.model, vector.values.length);
  if (space === undefined) return [];
  if (space.storage === 'pgvector')
    return annSearch(db, support, space, vector.values, options, limit);
  return scoredSearch(db, space, vector.values, options, limit);
}

async function annSearch(
  db: PgLike,
  support: VectorSupport,
  space: VectorSpace,
  values: Float32Array,
  options: SearchOptions,
  limit: number,
): Promise<VectorHit[]> {
  const op = cosineOperator(support);
  const cast = `::${support.schema}.vector`;
  const k = Math.min(MAX_EF_SEARCH, Math.max(limit * 2, 64));
  const params = new Params();
  const q = params.add(columnValue(space, values));
  const where = buildFilter(options, params);
  const knn = `WITH knn AS MATERIALIZED (
      SELECT v.seq, (v.embedding ${op} ${q}${cast})::float8 AS distance FROM ${space.table} v
      ORDER BY v.embedding ${op} ${q}${cast} LIMIT ${params.add(k)})
    SELECT m.id AS id, knn.distance AS distance FROM knn JOIN memories m ON m.seq = knn.seq
    WHERE ${where} ORDER BY knn.distance, m.seq LIMIT ${params.add(limit)}`;
  const hits = await db.withConnection(async (conn) => {
    await conn.query('BEGIN');
    try {
      // The index returns at most ef_search rows; ask for as many as the oversampled k.
      await conn.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(k)]);
      const { rows } = await conn.query<VectorHit>(knn, params.values);
      await conn.query('COMMIT');
      return rows;
    } catch (error) {
      await conn.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
  if (hits.length >= limit) return hits.map(numeric);
  // Fewer than `limit` in-scope rows among the k nearest: scan the in-scope rows exactly. OFFSET 0
  // fences the subquery so the planner cannot answer the ORDER BY from the approximate index.
  const exact = new Params();
  const eq = exact.add(columnValue(space, values));
  const ewhere = buildFilter(options, exact);
  const { rows } = await db.query<VectorHit & { seq: string }>(
    `SELECT id, distance FROM (
       SELECT m.id AS id, m.seq AS seq, (v.embedding ${op} ${eq}${cast})::float8 AS distance
       FROM memories m JOIN ${space.table} v ON v.seq = m.seq WHERE ${ewhere} OFFSET 0) s
     ORDER BY distance, seq LIMIT ${exact.add(limit)}`,
    exact.values,
  );
  return rows.map(numeric);
}

function numeric(hit: VectorHit): VectorHit {
  return { id: hit.id, distance: Number(hit.distance) };
}

interface ScoredRow {
  id: string;
  seq: string | number;
  embedding: unknown;
}

async function scoredSearch(
  db: PgLike,
  space: VectorSpace,
  values: Float32Array,
  options: SearchOptions,
  limit: number,
): Promise<VectorHit[]> {
  const params = new Params();
  const where = buildFilter(options, params);
  const select = `SELECT m.id AS id, m.seq AS seq, ${embeddingRead(space)} AS embedding
    FROM memories m JOIN ${space.table} v ON v.seq = m.seq WHERE ${where}`;
  const { rows } = await db.query<ScoredRow>(
    `${select} ORDER BY m.seq DESC LIMIT ${params.add(FULL_SCAN_ROWS + 1)}`,
    params.values,
  );
  let scored = rows;
  if (rows.length > FULL_SCAN_ROWS) {
    scored = rows.slice(0, RECENT_ROWS);
    const candidates = [...new Set(options.candidates ?? [])];
    if (candidates.length > 0) {
      const more = new Params();
      const mwhere = buildFilter(options, more);
      const ids = more.add(candidates);
      const extra = await db.query<ScoredRow>(
        `SELECT m.id AS id, m.seq AS seq, ${embeddingRead(space)} AS embedding
         FROM memories m JOIN ${space.table} v ON v.seq = m.seq WHERE ${mwhere} AND m.id = ANY(${ids}::text[])`,
        more.values,
      );
      const seen = new Set(scored.map((row) => row.id));
      scored = [...scored, ...extra.rows.filter((row) => !seen.has(row.id))];
    }
  }
  return scored
    .map((row) => ({
      id: row.id,
      seq: Number(row.seq),
      distance: cosineDistance(values, valuesOf(space, row.embedding)),
    }))
    .sort((a, b) => a.distance - b.distance || a.seq - b.seq)
    .slice(0, limit)
    .map(({ id, distance }) => ({ id, distance }));
}
