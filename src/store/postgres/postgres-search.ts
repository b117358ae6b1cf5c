/**
 * SQL builders for reads: the filter every read shares (the same rules as the SQLite adapter's, in
 * PostgreSQL syntax), the lexical candidates of analysed query terms, and the identifier leg's
 * substring query. Values always travel as parameters; only generated placeholders enter the SQL text.
 */
import type { LexicalField } from '../../core/ranking/bm25f.js';
import { isoBound, substringTerms } from '../query-terms.js';
import type { MemoryFilter } from '../store.js';

/** Collects parameters and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** WHERE clause (without the keyword) over alias `m` of `memories`. */
export function buildFilter(filter: MemoryFilter, params: Params): string {
  const clauses: string[] = [];
  const { scope } = filter;
  if (scope !== undefined) {
    if (scope.projectKey === null) {
      clauses.push("m.visibility = 'global'");
    } else {
      const key = params.add(scope.projectKey);
      clauses.push(
        scope.includeGlobal
          ? `((m.project_key = ${key} AND m.visibility = 'project') OR m.visibility = 'global')`
          : `(m.project_key = ${key} AND m.visibility = 'project')`,
      );
    }
  }
  const reader = typeof scope?.author === 'string' ? scope.author : filter.reader;
  if (typeof reader === 'string') {
    clauses.push(
      `(m.team_visible OR m.author_user IS NULL OR m.author_user = ${params.add(reader)})`,
    );
  }
  // An empty list matches nothing rather than everything (fail closed), as on SQLite.
  // A project's checkpoints and the pinned memories are written out, never parameters, so the query
  // implies the WHERE of the partial indexes session start lists through (schema v6).
  if (filter.kinds?.length === 1 && filter.kinds[0] === 'checkpoint') {
    clauses.push("m.kind = 'checkpoint'");
  } else if (filter.kinds !== undefined) {
    clauses.push(`m.kind = ANY(${params.add([...filter.kinds])}::text[])`);
  }
  if (filter.origins !== undefined) {
    clauses.push(`m.origin = ANY(${params.add([...filter.origins])}::text[])`);
  }
  const tags = [...new Set((filter.tags ?? []).map((tag) => tag.trim().toLowerCase()))];
  if (tags.length > 0) clauses.push(`m.tags @> ${params.add(tags)}::text[]`);
  if (filter.createdAfter !== undefined) {
    clauses.push(`m.created_at >= ${params.add(isoBound(filter.createdAfter, 'createdAfter'))}`);
  }
  if (filter.createdBefore !== undefined) {
    clauses.push(`m.created_at <= ${params.add(isoBound(filter.createdBefore, 'createdBefore'))}`);
  }
  for (const [column, values] of [
    ['origin_tool', filter.originTools],
    ['session_id', filter.sessionIds],
    ['source_url', filter.sourceUrls],
  ] as const) {
    if (values !== undefined) clauses.push(`m.${column} = ANY(${params.add([...values])}::text[])`);
  }
  if (filter.sourceDomains !== undefined) {
    // The host itself or a subdomain, compared by suffix (as on SQLite): no LIKE, so no wildcard in a
    // domain can widen it.
    const domains = params.add(filter.sourceDomains.map((d) => String(d).toLowerCase()));
    clauses.push(
      `EXISTS (SELECT 1 FROM unnest(${domains}::text[]) AS d(v) WHERE m.source_host = d.v
         OR right(m.source_host, length(d.v) + 1) = '.' || d.v)`,
    );
  }
  if (filter.pinned !== undefined) clauses.push(filter.pinned ? 'm.pinned' : 'NOT m.pinned');
  if (filter.includeSuperseded !== true) clauses.push('m.superseded_by IS NULL');
  if (filter.quarantine === undefined) {
    clauses.push("m.quarantine <> 'rejected'");
  } else {
    clauses.push(`m.quarantine = ANY(${params.add([...filter.quarantine])}::text[])`);
  }
  return clauses.length === 0 ? 'true' : clauses.join(' AND ');
}

/**
 * Lexical candidates for core's BM25F (postgres-lexical.ts): rows whose tsvector holds an analysed query
 * term, ordered by ts_rank with the field weights (body at A, context at B; ts_rank takes weights in
 * [0, 1], so they are scaled to the larger one), ties by seq. The terms are core's analyser's (letters,
 * digits and marks only), so no tsquery operator can appear; the 'simple' configuration matches them
 * as they are, as the index stores them.
 */
export function lexicalCandidatesSql(
  terms: readonly string[],
  weights: Readonly<Record<LexicalField, number>>,
  filter: MemoryFilter,
  limit: number,
): { sql: string; params: unknown[] } {
  const params = new Params();
  const q = params.add(terms.join(' | '));
  const scale = Math.max(weights.body, weights.context);
  const [body, context] =
    scale > 0 ? [weights.body / scale, weights.context / scale].map((w) => Math.max(0, w)) : [1, 1];
  const rank = params.add(`{0,0,${context},${body}}`);
  const where = buildFilter(filter, params);
  const sql = `SELECT m.seq AS seq, m.id AS id, m.content AS content, m.tags AS tags, m.context AS context
    FROM memories m, to_tsquery('simple', ${q}) AS q(q)
    WHERE m.lexical @@ q.q AND ${where}
    ORDER BY ts_rank(${rank}::float4[], m.lexical, q.q) DESC, m.seq LIMIT ${params.add(limit)}`;
  return { sql, params: params.values };
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Substring candidates for code terms: memories whose lower-cased content contains any term. The
 * score sums ln(1 + n/df) over the matched terms (n candidates, df of them containing the term), so
 * more and rarer matches rank first, as bm25 over SQLite's trigram index does. A trigram GIN index on
 * lower(content) serves the LIKEs when pg_trgm is installed; without it they scan, still correct.
 */
export function termsSql(
  terms: readonly string[],
  filter: MemoryFilter,
  limit: number,
): { sql: string; params: unknown[] } | null {
  const kept = substringTerms(terms);
  if (kept.length === 0) return null;
  const params = new Params();
  const patterns = kept.map(likePattern);
  const list = params.add(patterns);
  const any = patterns
    .map((pattern) => `lower(m.content) LIKE ${params.add(pattern)}`)
    .join(' OR ');
  const where = buildFilter(filter, params);
  const sql = `WITH cand AS MATERIALIZED (
      SELECT m.seq, m.id, lower(m.content) AS c FROM memories m WHERE (${any}) AND ${where}),
    pats AS (SELECT p FROM unnest(${list}::text[]) AS t(p)),
    df AS (SELECT pats.p, count(*)::float8 AS df FROM pats JOIN cand ON cand.c LIKE pats.p GROUP BY pats.p),
    total AS (SELECT count(*)::float8 AS n FROM cand)
    SELECT cand.id AS id, sum(ln(1 + total.n / df.df))::float8 AS score
    FROM cand JOIN df ON cand.c LIKE df.p CROSS JOIN total
    GROUP BY cand.id, cand.seq ORDER BY score DESC, cand.seq LIMIT ${params.add(limit)}`;
  return { sql, params: params.values };
}
