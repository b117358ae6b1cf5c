/**
 * SQL builders for reads: the filter every read shares (scope, kinds, tags, origins, time, superseded,
 * review state),
 * the FTS5 query built from arbitrary user text, and vector KNN / exact-scan statements.
 */
import { MemoryError } from '../../core/errors.js';
import { withoutStopwords } from '../../core/text/stopwords.js';
import type { MemoryFilter } from '../store.js';
import type { SqliteValue } from './sqlite-like.js';

export interface SqlFragment {
  sql: string;
  params: SqliteValue[];
}

/** Upper bound on OR-ed terms: keeps a 100 KB paste as fast as a short query. */
export const MAX_QUERY_TERMS = 64;

// Letters, digits, combining marks and private-use characters are what FTS5's unicode61 treats as
// token characters; everything else (punctuation, symbols, emoji, NUL, FTS5 operators) separates.
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * Turns any string into a safe FTS5 MATCH expression: plain terms, each quoted as an FTS5 string, OR-ed
 * so bm25 ranks documents matching more of them first; stop words are dropped unless nothing else is
 * left. Returns null when nothing is searchable.
 */
export function buildFtsQuery(input: string, maxTerms = MAX_QUERY_TERMS): string | null {
  const terms = new Set<string>();
  for (const match of input.matchAll(TERM)) {
    terms.add(match[0].toLowerCase());
    if (terms.size >= maxTerms) break;
  }
  if (terms.size === 0) return null;
  return withoutStopwords([...terms])
    .map((term) => `"${term.replaceAll('"', '""')}"`)
    .join(' OR ');
}

/** WHERE clause (without the keyword) over alias `m` of `memories`. */
export function buildFilter(filter: MemoryFilter): SqlFragment {
  const clauses: string[] = [];
  const params: SqliteValue[] = [];
  const { scope } = filter;
  if (scope !== undefined) {
    if (scope.projectKey === null) {
      clauses.push("m.visibility = 'global'");
    } else {
      clauses.push(
        scope.includeGlobal
          ? "((m.project_key = ? AND m.visibility = 'project') OR m.visibility = 'global')"
          : "(m.project_key = ? AND m.visibility = 'project')",
      );
      params.push(scope.projectKey);
    }
  }
  // An empty list matches nothing rather than everything: a caller that narrowed origins to an empty
  // allowlist must not get every origin back (fail closed).
  if (filter.kinds !== undefined) {
    clauses.push(`m.kind IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filter.kinds));
  }
  if (filter.origins !== undefined) {
    clauses.push(`m.origin IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filter.origins));
  }
  for (const tag of new Set(filter.tags ?? [])) {
    clauses.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?)');
    params.push(tag.trim().toLowerCase());
  }
  if (filter.createdAfter !== undefined) {
    clauses.push('m.created_at >= ?');
    params.push(isoBound(filter.createdAfter, 'createdAfter'));
  }
  if (filter.createdBefore !== undefined) {
    clauses.push('m.created_at <= ?');
    params.push(isoBound(filter.createdBefore, 'createdBefore'));
  }
  if (filter.pinned !== undefined) {
    clauses.push('m.pinned = ?');
    params.push(filter.pinned ? 1 : 0);
  }
  if (filter.includeSuperseded !== true) clauses.push('m.superseded_by IS NULL');
  // Rejected memories are kept for audit and appear only where a caller asks for them by state.
  if (filter.quarantine === undefined) {
    clauses.push("m.quarantine <> 'rejected'");
  } else {
    clauses.push('m.quarantine IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.quarantine));
  }
  return { sql: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}

// Stored timestamps are `toISOString()` strings, so bounds are normalised to that exact shape before a
// text comparison ('2024-05-01' would otherwise sort before every instant of that day).
function isoBound(value: string, name: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new MemoryError('INVALID_INPUT', `${name} "${value}" is not an ISO-8601 date or time.`);
  }
  return new Date(time).toISOString();
}

/** Lexical candidates: -bm25 as score, ties broken by seq for stable output. */
export function lexicalSql(filter: SqlFragment): string {
  return `SELECT m.id AS id, -bm25(memories_fts) AS score
    FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
    WHERE memories_fts MATCH ? AND ${filter.sql}
    ORDER BY score DESC, m.seq LIMIT ?`;
}

/**
 * Oversampled KNN through the vec0 index, then the filter. Exact whenever it yields `limit` rows: any
 * in-scope vector outside the k global nearest is farther than all of them.
 */
export function knnSql(table: string, filter: SqlFragment): string {
  return `WITH knn AS (SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ?)
    SELECT m.id AS id, knn.distance AS distance FROM knn JOIN memories m ON m.seq = knn.rowid
    WHERE ${filter.sql} ORDER BY knn.distance, m.seq LIMIT ?`;
}

/** sqlite-vec allows k <= 4096 in one KNN query. */
export const MAX_KNN_K = 4096;

/**
 * Nearest neighbours the vec0 KNN is asked for, before the scope filter, for a result of `limit`.
 * sqlite-vec keeps its running top k sorted, so a query costs more as k grows: over 100k 256-d vectors
 * k = 400 took about twice as long as k = 64 (`npm run bench:latency`, docs/benchmarks.md). Twice the
 * limit leaves room for a store shared by a few projects; when fewer than `limit` in-scope rows come
 * back, the caller scans the in-scope rows exactly instead, so a small k never loses a result.
 */
export function knnK(limit: number): number {
  return Math.min(MAX_KNN_K, Math.max(limit * 2, 64));
}

/** Exact cosine scan over the in-scope rows only; the fallback when the filter is very selective. */
export function exactVectorSql(table: string, filter: SqlFragment): string {
  return `SELECT m.id AS id, vec_distance_cosine(v.embedding, ?) AS distance
    FROM memories m JOIN ${table} v ON v.rowid = m.seq
    WHERE ${filter.sql} ORDER BY distance, m.seq LIMIT ?`;
}

/** Terms shorter than a trigram cannot be looked up in the trigram index. */
export const MIN_TERM_LENGTH = 3;
/** Longest term looked up: longer ones are pastes, not identifiers. */
export const MAX_TERM_LENGTH = 200;

/**
 * Turns code terms into a safe MATCH expression for the trigram index: each term a quoted FTS5 string
 * (a substring match), OR-ed. Returns null when no term is long enough.
 */
export function buildTermsQuery(
  terms: readonly string[],
  maxTerms = MAX_QUERY_TERMS,
): string | null {
  const kept = new Set<string>();
  for (const raw of terms) {
    if (typeof raw !== 'string') continue;
    // NUL cannot be bound inside an FTS5 string; other characters are literal inside quotes.
    const term = raw.replaceAll('\u0000', '').trim().toLowerCase();
    if ([...term].length < MIN_TERM_LENGTH || term.length > MAX_TERM_LENGTH) continue;
    kept.add(term);
    if (kept.size >= maxTerms) break;
  }
  if (kept.size === 0) return null;
  return [...kept].map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/** Substring candidates from the trigram index: -bm25 as score, ties broken by seq. */
export function termsSql(filter: SqlFragment): string {
  return `SELECT m.id AS id, -bm25(memories_terms) AS score
    FROM memories_terms JOIN memories m ON m.seq = memories_terms.rowid
    WHERE memories_terms MATCH ? AND ${filter.sql}
    ORDER BY score DESC, m.seq LIMIT ?`;
}
