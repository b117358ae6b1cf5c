/**
 * Nearest neighbours of one vector space through sqlite-vec: the vec0 KNN oversampled before the scope
 * filter, then an exact scan of the in-scope rows when the filter left fewer than `limit`.
 */
import type { MemoryVector } from '../../core/memory.js';
import type { SearchOptions, VectorHit } from '../store.js';
import { vectorBytes } from '../write-rules.js';
import type { SqliteLike } from './sqlite-like.js';
import { buildFilter, exactVectorSql, knnK, knnSql } from './sqlite-search.js';
import { findSpace } from './sqlite-vectors.js';

export function vectorSearchIn(
  db: SqliteLike,
  vector: MemoryVector,
  options: SearchOptions,
): VectorHit[] {
  const filter = buildFilter(options);
  const limit = Math.floor(options.limit);
  const blob = Buffer.from(vectorBytes(vector.values));
  const table = findSpace(db, vector.model, vector.values.length);
  if (table === undefined) return [];
  const k = knnK(limit);
  const hits = db
    .prepare(knnSql(table, filter))
    .all(blob, k, ...filter.params, limit) as VectorHit[];
  if (hits.length >= limit) return hits;
  // Fewer than `limit` in-scope rows among the k global nearest: scan the in-scope rows exactly.
  return db
    .prepare(exactVectorSql(table, filter))
    .all(blob, ...filter.params, limit) as VectorHit[];
}
