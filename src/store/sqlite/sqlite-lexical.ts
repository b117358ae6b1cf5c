/**
 * The lexical index of the SQLite store (schema v8): `memories_lex`, a contentless FTS5 table over the
 * terms of core's analyser in two fields (body = content and tags, context), the collection totals in
 * `lexical_state`, and the derived `context` column of `memories`. FTS5 finds candidates; core scores
 * them with BM25F (core/ranking/bm25f.ts) from the term statistics read here. Every function runs inside
 * the caller's transaction; the write path calls them for every change of content, tags or neighbours.
 */
import { lexicalPool, type LexicalStats, RECALL_BM25F } from '../../core/ranking/bm25f.js';
import { analyzeQuery } from '../../core/text/analyze.js';
import {
  CONTEXT_AFTER,
  CONTEXT_BEFORE,
  joinContext,
  sharesContext,
} from '../../core/text/capture-context.js';
import {
  contextMatchTerms,
  LEXICAL_INDEX_VERSION,
  LEXICAL_ROW_COLUMNS,
  lexicalFields as fieldsOf,
  rankCandidates,
  SHARES_CONTEXT_SQL,
} from '../lexical-rules.js';
import type { LexicalHit, LexicalSearchOptions } from '../store.js';
import type { SqliteLike } from './sqlite-like.js';
import {
  buildFilter,
  lexicalCandidatesSql,
  lexicalMatchOf,
  rankedLexicalCandidatesSql,
  rankedLexicalWindow,
} from './sqlite-search.js';

/** The columns of a row that its lexical document is made of. */
export interface LexicalRow {
  seq: number;
  content: string;
  tags: string;
  context: string;
  session_id: string | null;
  project_key: string;
  trust_band: string;
  quarantine: string;
}

/** The analysed fields of a row: content and tags as the body, the context on its own. */
export function lexicalFields(row: Pick<LexicalRow, 'content' | 'tags' | 'context'>): {
  body: string[];
  context: string[];
} {
  return fieldsOf(row.content, JSON.parse(row.tags) as string[], row.context);
}

function adjustTotals(db: SqliteLike, sign: 1 | -1, body: number, context: number): void {
  db.prepare(
    `UPDATE lexical_state SET docs = max(0, docs + ?), body_terms = max(0, body_terms + ?),
     context_terms = max(0, context_terms + ?) WHERE id = 1`,
  ).run(sign, sign * body, sign * context);
}

/** Adds a row to the index. */
export function indexRow(
  db: SqliteLike,
  row: Pick<LexicalRow, 'seq' | 'content' | 'tags' | 'context'>,
): void {
  const fields = lexicalFields(row);
  db.prepare(
    'INSERT INTO memories_lex (rowid, body, context) VALUES (CAST(? AS INTEGER), ?, ?)',
  ).run(row.seq, fields.body.join(' '), fields.context.join(' '));
  adjustTotals(db, 1, fields.body.length, fields.context.length);
}

/** Removes a row from the index; `row` must hold the text it was indexed with. */
export function unindexRow(
  db: SqliteLike,
  row: Pick<LexicalRow, 'seq' | 'content' | 'tags' | 'context'>,
): void {
  const fields = lexicalFields(row);
  const { changes } = db.prepare('DELETE FROM memories_lex WHERE rowid = ?').run(row.seq);
  if (Number(changes) > 0) adjustTotals(db, -1, fields.body.length, fields.context.length);
}

export function selectLexicalRow(db: SqliteLike, seq: number): LexicalRow | undefined {
  return db.prepare(`SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE seq = ?`).get(seq) as
    | LexicalRow
    | undefined;
}

interface Around {
  seq: number;
  session_id: string;
  project_key: string;
}

/** The nearest qualifying rows of the same session and project before or after `at`, nearest first. */
function neighbours(
  db: SqliteLike,
  at: Around,
  side: 'before' | 'after',
  limit: number,
): { seq: number; content: string }[] {
  const [op, order] = side === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
  return db
    .prepare(
      `SELECT seq, content FROM memories WHERE session_id = ? AND project_key = ? AND seq ${op} ?
       AND ${SHARES_CONTEXT_SQL} ORDER BY seq ${order} LIMIT ?`,
    )
    .all(at.session_id, at.project_key, at.seq, limit) as { seq: number; content: string }[];
}

/** The context a row should have now, by the rule of core/text/capture-context.ts. */
export function contextOf(db: SqliteLike, row: LexicalRow): string {
  if (row.session_id === null || !sharesContext(row.trust_band, row.quarantine)) return '';
  const at = { ...row, session_id: row.session_id };
  const before = neighbours(db, at, 'before', CONTEXT_BEFORE).map((r) => r.content);
  const after = neighbours(db, at, 'after', CONTEXT_AFTER).map((r) => r.content);
  return joinContext(before.reverse(), after);
}

/** Recomputes one row's context and re-indexes it when the context changed. */
export function refreshContext(db: SqliteLike, seq: number): void {
  const row = selectLexicalRow(db, seq);
  if (row === undefined) return;
  const context = contextOf(db, row);
  if (context === row.context) return;
  unindexRow(db, row);
  db.prepare('UPDATE memories SET context = ? WHERE seq = ?').run(context, seq);
  indexRow(db, { ...row, context });
}

/** Indexes a row just inserted, with the context its session gives it, and refreshes its neighbours. */
export function indexNewRow(db: SqliteLike, seq: number): void {
  const row = selectLexicalRow(db, seq);
  if (row === undefined) return;
  const context = contextOf(db, row);
  if (context !== row.context) {
    db.prepare('UPDATE memories SET context = ? WHERE seq = ?').run(context, seq);
  }
  indexRow(db, { ...row, context });
  refreshAround(db, row, { self: false });
}

/**
 * Refreshes the contexts that a change at `seq` (an insert, a delete, new content, a review state) can
 * affect: the row itself when it exists (unless `self` is false), and the neighbours whose window reaches
 * it. Call after the change.
 */
export function refreshAround(
  db: SqliteLike,
  around: { seq: number; session_id: string | null; project_key: string },
  options: { self?: boolean } = {},
): void {
  if (around.session_id === null) {
    if (options.self !== false) refreshContext(db, around.seq);
    return;
  }
  const at = { ...around, session_id: around.session_id };
  const near = (side: 'before' | 'after', limit: number): number[] =>
    neighbours(db, at, side, limit).map((r) => r.seq);
  const self = options.self === false ? [] : [around.seq];
  for (const seq of [...near('before', CONTEXT_AFTER), ...self, ...near('after', CONTEXT_BEFORE)]) {
    refreshContext(db, seq);
  }
}

/** True when the index was built by another analyser or context rule, or not built yet. */
export function lexicalIndexStale(db: SqliteLike): boolean {
  const state = db.prepare('SELECT analyzer FROM lexical_state WHERE id = 1').get() as
    | { analyzer: string }
    | undefined;
  return state?.analyzer !== LEXICAL_INDEX_VERSION;
}

/**
 * Builds the index when it was built by another analyser or context rule (or never: right after the v8
 * migration): every row's context is derived again and every row indexed. One pass, inside the caller's
 * transaction. Returns whether it rebuilt.
 */
export function ensureLexicalIndex(db: SqliteLike): boolean {
  if (!lexicalIndexStale(db)) return false;
  db.exec("INSERT INTO memories_lex (memories_lex) VALUES ('delete-all')");
  db.prepare(
    'UPDATE lexical_state SET analyzer = ?, docs = 0, body_terms = 0, context_terms = 0 WHERE id = 1',
  ).run(LEXICAL_INDEX_VERSION);
  const PAGE = 1000;
  let after = 0;
  for (;;) {
    const rows = db
      .prepare(`SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE seq > ? ORDER BY seq LIMIT ?`)
      .all(after, PAGE) as LexicalRow[];
    for (const row of rows) {
      const context = contextOf(db, row);
      if (context !== row.context) {
        db.prepare('UPDATE memories SET context = ? WHERE seq = ?').run(context, row.seq);
      }
      indexRow(db, { ...row, context });
    }
    if (rows.length < PAGE) return true;
    after = rows.at(-1)!.seq;
  }
}

/** Collection totals and the document frequency of each term. */
export function lexicalStats(db: SqliteLike, terms: readonly string[]): LexicalStats {
  const totals = db
    .prepare('SELECT docs, body_terms, context_terms FROM lexical_state WHERE id = 1')
    .get() as { docs: number; body_terms: number; context_terms: number } | undefined;
  const docFrequency = new Map<string, number>();
  if (terms.length > 0) {
    const rows = db
      .prepare(
        'SELECT term, doc FROM memories_lex_vocab WHERE term IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(terms)) as { term: string; doc: number }[];
    for (const row of rows) docFrequency.set(row.term, row.doc);
  }
  return {
    docs: totals?.docs ?? 0,
    fieldTerms: { body: totals?.body_terms ?? 0, context: totals?.context_terms ?? 0 },
    docFrequency,
  };
}

/** Occurrences of each term in memories' own text (the body field), and all body terms. */
export function bodyTermCounts(
  db: SqliteLike,
  terms: readonly string[],
): { total: number; counts: Map<string, number> } {
  const totals = db.prepare('SELECT body_terms AS n FROM lexical_state WHERE id = 1').get() as
    | { n: number }
    | undefined;
  const counts = new Map<string, number>();
  if (terms.length > 0) {
    const rows = db
      .prepare(
        `SELECT term, cnt FROM memories_lex_columns
         WHERE term IN (SELECT value FROM json_each(?)) AND col = 'body'`,
      )
      .all(JSON.stringify([...new Set(terms)])) as { term: string; cnt: number }[];
    for (const row of rows) counts.set(row.term, row.cnt);
  }
  return { total: totals?.n ?? 0, counts };
}

type CandidateRow = LexicalRow & { id: string; ranked?: number };

/** Lexical candidates from FTS5, re-scored with core's BM25F (see `LexicalSearchOptions`). */
export function searchLexicalIn(
  db: SqliteLike,
  query: string,
  options: LexicalSearchOptions,
): LexicalHit[] {
  const terms = analyzeQuery(query);
  if (terms.length === 0) return [];
  const stats = lexicalStats(db, terms);
  const match = lexicalMatchOf(terms, contextMatchTerms(terms, stats))!;
  const params = options.bm25f ?? RECALL_BM25F;
  const filter = buildFilter(options);
  const limit = Math.floor(options.limit);
  const native = options.scoring === 'native';
  const pool = native ? limit : Math.max(limit, Math.floor(options.pool ?? lexicalPool(limit)));
  const { body, context } = params.weights;
  const window = rankedLexicalWindow(pool);
  let rows = db
    .prepare(rankedLexicalCandidatesSql(filter))
    .all(body, context, match, window, ...filter.params, pool) as CandidateRow[];
  if (rows.length < pool && (rows[0]?.ranked ?? window) >= window) {
    // The filter dropped too many of the index's best matches: rank every match instead.
    rows = db
      .prepare(lexicalCandidatesSql(filter))
      .all(match, ...filter.params, body, context, pool) as CandidateRow[];
  }
  if (rows.length === 0) return [];
  if (native) return rows.map((row, i) => ({ id: row.id, score: rows.length - i }));
  const candidates = rows.map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[] }));
  return rankCandidates(terms, candidates, stats, params, limit);
}

/** The saved state of a store-derived model, or undefined. */
export function readModelState(db: SqliteLike, model: string): Record<string, unknown> | undefined {
  const row = db.prepare('SELECT state FROM model_state WHERE model = ?').get(model) as
    | { state: string }
    | undefined;
  return row === undefined ? undefined : (JSON.parse(row.state) as Record<string, unknown>);
}

export function writeModelState(
  db: SqliteLike,
  model: string,
  state: Record<string, unknown>,
  at: string,
): void {
  db.prepare(
    `INSERT INTO model_state (model, state, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (model) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  ).run(model, JSON.stringify(state), at);
}
