/**
 * SQL builders for reads: the filter every read shares (scope, kinds, tags, origins, time, superseded,
 * review state),
 * the FTS5 query built from arbitrary user text, and vector KNN / exact-scan statements.
 */
import { analyzeQuery } from '../../core/text/analyze.js';
import { isoBound, MAX_QUERY_TERMS, substringTerms } from '../query-terms.js';
import type { ListOptions, MemoryFilter } from '../store.js';
import type { SqliteValue } from './sqlite-like.js';

export interface SqlFragment {
  sql: string;
  params: SqliteValue[];
}

/**
 * The FTS5 MATCH expression of analysed query terms (core/text/analyze.ts): each term quoted as an FTS5
 * string, OR-ed, so any memory holding one of them is a candidate. Null when nothing is searchable.
 */
export function ftsMatchOf(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * The MATCH expression of a lexical search: `terms` in either field, except those not in
 * `contextTerms`, which are looked for in the body only (lexical-rules.ts `contextMatchTerms`). Null when
 * there are no terms.
 */
export function lexicalMatchOf(
  terms: readonly string[],
  contextTerms: readonly string[],
): string | null {
  const bodyOnly = terms.filter((term) => !contextTerms.includes(term));
  const either = terms.filter((term) => contextTerms.includes(term));
  if (bodyOnly.length === 0) return ftsMatchOf(either);
  const body = `{body} : (${ftsMatchOf(bodyOnly)!})`;
  return either.length === 0 ? body : `${ftsMatchOf(either)!} OR ${body}`;
}

/** Turns any string into a safe FTS5 MATCH expression over the analysed terms; null when none. */
export function buildFtsQuery(input: string): string | null {
  return ftsMatchOf(analyzeQuery(input));
}

/**
 * WHERE clause (without the keyword) over alias `m` of `memories`. A unary `+` keeps a column out of
 * index selection where no index should drive the query: a project scope is then read through
 * `memories_project_created`, in `created_at` order, instead of all of a visibility's rows.
 */
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
          : "(m.project_key = ? AND +m.visibility = 'project')",
      );
      params.push(scope.projectKey);
    }
  }
  const reader = typeof scope?.author === 'string' ? scope.author : filter.reader;
  if (typeof reader === 'string') {
    clauses.push('(m.team_visible = 1 OR m.author_user IS NULL OR m.author_user = ?)');
    params.push(reader);
  }
  // An empty list matches nothing rather than everything: a caller that narrowed origins to an empty
  // allowlist must not get every origin back (fail closed).
  if (onlyCheckpoints(filter)) {
    // Written out, so the query implies the WHERE of the partial index memories_checkpoints.
    clauses.push("m.kind = 'checkpoint'");
  } else if (filter.kinds !== undefined) {
    clauses.push(`+m.kind IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filter.kinds));
  }
  if (filter.origins !== undefined) {
    clauses.push(`+m.origin IN (SELECT value FROM json_each(?))`);
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
  for (const [column, values] of [
    ['origin_tool', filter.originTools],
    ['session_id', filter.sessionIds],
    ['source_url', filter.sourceUrls],
  ] as const) {
    if (values === undefined) continue;
    clauses.push(`m.${column} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(values));
  }
  if (filter.sourceDomains !== undefined) {
    // The host itself or a subdomain: compared by suffix, so no LIKE wildcard in a domain can widen it.
    clauses.push(
      `EXISTS (SELECT 1 FROM json_each(?) d WHERE m.source_host = d.value
         OR substr(m.source_host, -length(d.value) - 1) = '.' || d.value)`,
    );
    params.push(JSON.stringify(filter.sourceDomains.map((d) => String(d).toLowerCase())));
  }
  // Written out (never a parameter), so `pinned = 1` implies the WHERE of the partial index memories_pinned.
  if (filter.pinned !== undefined) clauses.push(filter.pinned ? 'm.pinned = 1' : 'm.pinned = 0');
  if (filter.includeSuperseded !== true) clauses.push('m.superseded_by IS NULL');
  // Rejected memories are kept for audit and appear only where a caller asks for them by state.
  if (filter.quarantine === undefined) {
    clauses.push("m.quarantine <> 'rejected'");
  } else {
    clauses.push('+m.quarantine IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.quarantine));
  }
  return { sql: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}

const NEWEST_FIRST = 'ORDER BY m.created_at DESC, m.seq DESC';

function onlyCheckpoints(filter: MemoryFilter): boolean {
  return filter.kinds?.length === 1 && filter.kinds[0] === 'checkpoint';
}

/**
 * The partial index a listing walks, when its filter implies one (schema v9): pinned memories, or a
 * project's checkpoints. Session start asks for both on every start and there are few of either, so
 * without them it would walk the whole scope newest-first to find none (50 ms at 100k memories).
 * Named explicitly, since SQLite without statistics prefers the scope's index.
 */
function listIndex(options: ListOptions): string {
  if (options.includeSuperseded === true) return '';
  if (options.pinned === true) return ' INDEXED BY memories_pinned';
  return onlyCheckpoints(options) ? ' INDEXED BY memories_checkpoints' : '';
}

/**
 * `listMemories`: newest first. A project's scope with global memories is read as two walks of an index
 * in `created_at` order (the project's rows, the global rows), each stopped after `limit + offset`
 * matches, then merged: as one OR, SQLite would collect and sort every row in scope, which took
 * 100–300 ms per session start at 10k–100k memories (docs/benchmarks.md, "Hook latency").
 */
export function listSql(options: ListOptions): SqlFragment {
  const limit = Math.floor(options.limit);
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const { scope } = options;
  if (scope === undefined || scope.projectKey === null || !scope.includeGlobal) {
    const filter = buildFilter(options);
    return {
      sql: `SELECT m.* FROM memories m${listIndex(options)} WHERE ${filter.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
      params: [...filter.params, limit, offset],
    };
  }
  const project = buildFilter({ ...options, scope: { ...scope, includeGlobal: false } });
  // The same scope otherwise (its author rule included), narrowed to global memories.
  const global = buildFilter({ ...options, scope: { ...scope, projectKey: null } });
  const walk = (filter: SqlFragment) =>
    `SELECT * FROM (SELECT m.* FROM memories m${listIndex(options)} WHERE ${filter.sql} ${NEWEST_FIRST} LIMIT ?)`;
  return {
    sql: `${walk(project)} UNION ALL ${walk(global)} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    params: [...project.params, limit + offset, ...global.params, limit + offset, limit, offset],
  };
}

/**
 * Lexical candidates for core's BM25F: FTS5 finds the rows holding a query term and orders them by its
 * own bm25 with the same field weights (k1 and b fixed there), which is close enough to pick the pool
 * that BM25F re-scores. Bind: match, filter params, body weight, context weight, limit. Exact for any
 * filter, but it reads the `memories` row of every match before sorting: use it when
 * `rankedLexicalCandidatesSql` comes back short.
 */
export function lexicalCandidatesSql(filter: SqlFragment): string {
  return `SELECT m.seq AS seq, m.id AS id, m.content AS content, m.tags AS tags, m.context AS context
    FROM memories_lex JOIN memories m ON m.seq = memories_lex.rowid
    WHERE memories_lex MATCH ? AND ${filter.sql}
    ORDER BY bm25(memories_lex, ?, ?), m.seq LIMIT ?`;
}

/**
 * The same candidates in the same order, from the index's `ranked` best matches only: FTS5 ranks its
 * matches without touching `memories`, and only those few rows are then read and filtered. At 100k
 * memories a common query term matches tens of thousands of rows (a term in a neighbour's context counts
 * too), and reading each one's row for the filter cost more than ranking them. CROSS JOIN keeps that
 * order: left to itself, the planner walked `memories` by the filter's index and probed the ranked set. Exact whenever it returns
 * `limit` rows, or when the index had no more than `ranked` matches (each row says how many it read):
 * any row the filter kept outside the `ranked` best ranks below all of them. Bind: body weight, context
 * weight, match, ranked, filter params, limit.
 */
export function rankedLexicalCandidatesSql(filter: SqlFragment): string {
  return `WITH ranked AS (SELECT rowid AS seq, bm25(memories_lex, ?, ?) AS rank_score
      FROM memories_lex WHERE memories_lex MATCH ? ORDER BY rank_score, rowid LIMIT ?),
    counted AS (SELECT seq, rank_score, count(*) OVER () AS ranked FROM ranked)
    SELECT m.seq AS seq, m.id AS id, m.content AS content, m.tags AS tags, m.context AS context,
      counted.ranked AS ranked
    FROM counted CROSS JOIN memories m ON m.seq = counted.seq
    WHERE ${filter.sql}
    ORDER BY counted.rank_score, m.seq LIMIT ?`;
}

/**
 * Best index matches read for a pool of `pool` candidates: room for a filter that drops three in four
 * (another project's, an untrusted origin's) before the exact query is needed.
 */
export function rankedLexicalWindow(pool: number): number {
  return pool * 4;
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

/**
 * Turns code terms into a safe MATCH expression for the trigram index: each term a quoted FTS5 string
 * (a substring match), OR-ed. Returns null when no term is long enough.
 */
export function buildTermsQuery(
  terms: readonly string[],
  maxTerms = MAX_QUERY_TERMS,
): string | null {
  const kept = substringTerms(terms, maxTerms);
  if (kept.length === 0) return null;
  return kept.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/** Substring candidates from the trigram index: -bm25 as score, ties broken by seq. */
export function termsSql(filter: SqlFragment): string {
  return `SELECT m.id AS id, -bm25(memories_terms) AS score
    FROM memories_terms JOIN memories m ON m.seq = memories_terms.rowid
    WHERE memories_terms MATCH ? AND ${filter.sql}
    ORDER BY score DESC, m.seq LIMIT ?`;
}
