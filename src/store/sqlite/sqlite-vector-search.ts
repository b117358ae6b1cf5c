/**
 * Nearest neighbours of one vector space: the global nearest oversampled before the scope filter (from
 * the resident mirror when it can answer, else sqlite-vec's vec0 KNN), then an exact scan of the
 * in-scope rows when the filter left fewer than `limit`. The mirror only picks the candidates: their
 * distances are computed by sqlite-vec, so both paths return the same hits and distances.
 */
import type { MemoryVector } from '../../core/memory.js';
import type { SearchOptions, VectorHit } from '../store.js';
import { assertValidVector, vectorBytes } from '../write-rules.js';
import type { SqliteLike } from './sqlite-like.js';
import { buildFilter, exactVectorSql, knnK, knnSql } from './sqlite-search.js';
import type { SqliteVectorMirror } from './sqlite-vector-mirror.js';
import { findSpace } from './sqlite-vectors.js';

export function vectorSearchIn(
  db: SqliteLike,
  vector: MemoryVector,
  options: SearchOptions,
  mirror?: SqliteVectorMirror,
): VectorHit[] {
  if (!(options.limit > 0) || vector.values.every((v) => v === 0)) return [];
  assertValidVector(vector);
  const filter = buildFilter(options);
  const limit = Math.floor(options.limit);
  const blob = Buffer.from(vectorBytes(vector.values));
  const table = findSpace(db, vector.model, vector.values.length);
  if (table === undefined) return [];
  const k = knnK(limit);
  const nearest = mirror?.nearest(table, vector.values, k);
  const hits = (
    nearest === undefined
      ? db.prepare(knnSql(table, filter)).all(blob, k, ...filter.params, limit)
      : db
          .prepare(candidatesSql(table, filter))
          .all(blob, JSON.stringify(nearest), ...filter.params, limit)
  ) as VectorHit[];
  if (hits.length >= limit) return hits;
  // Fewer than `limit` in-scope rows among the k global nearest: scan the in-scope rows exactly.
  return db
    .prepare(exactVectorSql(table, filter))
    .all(blob, ...filter.params, limit) as VectorHit[];
}

/**
 * The mirror's global nearest (seqs as JSON), filtered and scored like the vec0 KNN's. CROSS JOIN keeps
 * the candidates as the outer loop: a scope index must not turn this into a walk of the whole scope.
 */
function candidatesSql(table: string, filter: { sql: string }): string {
  return `SELECT m.id AS id, vec_distance_cosine(v.embedding, ?) AS distance
    FROM json_each(?) AS c CROSS JOIN memories m ON m.seq = c.value JOIN ${table} v ON v.rowid = m.seq
    WHERE ${filter.sql} ORDER BY distance, m.seq LIMIT ?`;
}
