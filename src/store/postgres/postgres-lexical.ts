/**
 * The lexical index of the PostgreSQL store (schema v5), the SQLite v8 design in PostgreSQL terms: the
 * analysed terms of body and context in `lexical_body` / `lexical_context` (a generated, weighted
 * tsvector over them serves the GIN index), the derived `context` column, and the term statistics
 * (`lexical_state`, `lexical_terms`) core's BM25F scores from. A write transaction tallies its changes
 * to the statistics in a `LexicalTally` and writes them in one pass just before it commits, so
 * concurrent writers hold the shared rows for as short a time as the audit chain's lock.
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
  INLINE_REBUILD_MAX_ROWS,
  LEXICAL_INDEX_VERSION,
  LEXICAL_ROW_COLUMNS,
  type LexicalFields,
  lexicalFields,
  longRebuildRefused,
  rankCandidates,
  SHARES_CONTEXT_SQL,
} from '../lexical-rules.js';
import type { LexicalHit, LexicalSearchOptions, TermCounts } from '../store.js';
import type { PgLike, PgQueryable } from './pg-like.js';
import { advisoryKey, LOCK_CLASS } from './postgres-locks.js';
import { lexicalColumns } from './postgres-rows.js';
import { lexicalCandidatesSql } from './postgres-search.js';

/** Changes to the term statistics made by one transaction. */
export class LexicalTally {
  readonly terms = new Map<string, { docs: number; body: number }>();
  docs = 0;
  bodyTerms = 0;
  contextTerms = 0;

  /** Counts a document in (`sign` 1) or out (-1). */
  add(fields: LexicalFields, sign: 1 | -1): void {
    this.docs += sign;
    this.bodyTerms += sign * fields.body.length;
    this.contextTerms += sign * fields.context.length;
    const entry = (term: string) => {
      let found = this.terms.get(term);
      if (found === undefined) {
        found = { docs: 0, body: 0 };
        this.terms.set(term, found);
      }
      return found;
    };
    for (const term of fields.body) entry(term).body += sign;
    for (const term of new Set([...fields.body, ...fields.context])) entry(term).docs += sign;
  }
}

/** Writes a transaction's tally: the terms in sorted order (one lock order for every writer), then the totals. */
export async function flushLexical(db: PgQueryable, tally: LexicalTally): Promise<void> {
  const changed = [...tally.terms]
    .filter(([, delta]) => delta.docs !== 0 || delta.body !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (changed.length > 0) {
    const terms = changed.map(([term]) => term);
    await db.query(
      `INSERT INTO lexical_terms AS t (term, docs, body)
       SELECT term, docs, body FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(term, docs, body)
       ORDER BY term
       ON CONFLICT (term) DO UPDATE SET docs = t.docs + excluded.docs, body = t.body + excluded.body`,
      [terms, changed.map(([, d]) => d.docs), changed.map(([, d]) => d.body)],
    );
    await db.query('DELETE FROM lexical_terms WHERE term = ANY($1::text[]) AND docs <= 0', [terms]);
  }
  if (tally.docs !== 0 || tally.bodyTerms !== 0 || tally.contextTerms !== 0) {
    await db.query(
      `UPDATE lexical_state SET docs = greatest(0, docs + $1), body_terms = greatest(0, body_terms + $2),
       context_terms = greatest(0, context_terms + $3) WHERE id = 1`,
      [tally.docs, tally.bodyTerms, tally.contextTerms],
    );
  }
  tally.terms.clear();
  tally.docs = 0;
  tally.bodyTerms = 0;
  tally.contextTerms = 0;
}

/** The columns of a row that its lexical document is made of. */
export interface PgLexicalRow {
  seq: string | number;
  content: string;
  tags: string[];
  context: string;
  session_id: string | null;
  project_key: string;
  trust_band: string;
  quarantine: string;
}

export function fieldsOf(row: {
  content: string;
  tags: readonly string[];
  context: string;
}): LexicalFields {
  return lexicalFields(row.content, row.tags, row.context);
}

export async function selectLexicalRow(
  db: PgQueryable,
  seq: number,
): Promise<PgLexicalRow | undefined> {
  const { rows } = await db.query<PgLexicalRow>(
    `SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE seq = $1`,
    [seq],
  );
  return rows[0];
}

interface Around {
  seq: string | number;
  session_id: string | null;
  project_key: string;
}

/** The nearest qualifying rows of the same session and project before or after `at`, nearest first. */
async function neighbours(
  db: PgQueryable,
  at: Around & { session_id: string },
  side: 'before' | 'after',
  limit: number,
): Promise<{ seq: string | number; content: string }[]> {
  const [op, order] = side === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
  const { rows } = await db.query<{ seq: string | number; content: string }>(
    `SELECT seq, content FROM memories WHERE session_id = $1 AND project_key = $2 AND seq ${op} $3
     AND ${SHARES_CONTEXT_SQL} ORDER BY seq ${order} LIMIT $4`,
    [at.session_id, at.project_key, at.seq, limit],
  );
  return rows;
}

async function contextOf(db: PgQueryable, row: PgLexicalRow): Promise<string> {
  if (row.session_id === null || !sharesContext(row.trust_band, row.quarantine)) return '';
  const at = { ...row, session_id: row.session_id };
  const before = (await neighbours(db, at, 'before', CONTEXT_BEFORE)).map((r) => r.content);
  const after = (await neighbours(db, at, 'after', CONTEXT_AFTER)).map((r) => r.content);
  return joinContext(before.reverse(), after);
}

/** Recomputes one row's context; when it changed, the row and the statistics follow. */
async function refreshContext(db: PgQueryable, tally: LexicalTally, seq: number): Promise<void> {
  const row = await selectLexicalRow(db, seq);
  if (row === undefined) return;
  const context = await contextOf(db, row);
  if (context === row.context) return;
  tally.add(fieldsOf(row), -1);
  const columns = lexicalColumns(row.content, row.tags, context);
  await db.query('UPDATE memories SET context = $1, lexical_context = $2 WHERE seq = $3', [
    context,
    columns.context,
    seq,
  ]);
  tally.add(fieldsOf({ ...row, context }), 1);
}

/**
 * Refreshes the contexts a change at `around` (an insert, a delete, new content, a review state) can
 * affect: the row itself unless `self` is false, and the neighbours whose window reaches it. Call after
 * the change.
 */
export async function refreshAround(
  db: PgQueryable,
  tally: LexicalTally,
  around: Around,
  options: { self?: boolean } = {},
): Promise<void> {
  const self = options.self === false ? [] : [Number(around.seq)];
  if (around.session_id === null) {
    for (const seq of self) await refreshContext(db, tally, seq);
    return;
  }
  const at = { ...around, session_id: around.session_id };
  const before = await neighbours(db, at, 'before', CONTEXT_AFTER);
  const after = await neighbours(db, at, 'after', CONTEXT_BEFORE);
  for (const seq of [
    ...before.map((r) => Number(r.seq)),
    ...self,
    ...after.map((r) => Number(r.seq)),
  ])
    await refreshContext(db, tally, seq);
}

/** Counts a row just inserted (with an empty context), gives it its context and refreshes its neighbours. */
export async function indexNewRow(
  db: PgQueryable,
  tally: LexicalTally,
  seq: number,
): Promise<void> {
  const row = await selectLexicalRow(db, seq);
  if (row === undefined) return;
  tally.add(fieldsOf(row), 1);
  await refreshAround(db, tally, row);
}

async function indexStale(db: PgQueryable): Promise<boolean> {
  const { rows } = await db.query<{ analyzer: string }>(
    'SELECT analyzer FROM lexical_state WHERE id = 1',
  );
  return rows[0]?.analyzer !== LEXICAL_INDEX_VERSION;
}

const REBUILD_PAGE = 1000;

/** Every row's context by the window the rule describes, from SQL's lag/lead over qualifying rows. */
function contextWindowSql(): string {
  const lags = Array.from(
    { length: CONTEXT_BEFORE },
    (_, i) => `lag(content, ${CONTEXT_BEFORE - i}) OVER w`,
  );
  const leads = Array.from({ length: CONTEXT_AFTER }, (_, i) => `lead(content, ${i + 1}) OVER w`);
  return `SELECT m.seq, m.content, m.tags, w.seq IS NOT NULL AS shares, w.near
    FROM memories m LEFT JOIN (
      SELECT seq, ARRAY[${[...lags, ...leads].join(', ')}] AS near FROM memories
      WHERE session_id IS NOT NULL AND ${SHARES_CONTEXT_SQL}
      WINDOW w AS (PARTITION BY session_id, project_key ORDER BY seq)) w ON w.seq = m.seq
    WHERE m.seq > $1 ORDER BY m.seq LIMIT $2`;
}

async function rebuild(db: PgQueryable): Promise<void> {
  await db.query('DELETE FROM lexical_terms');
  await db.query(
    'UPDATE lexical_state SET analyzer = $1, docs = 0, body_terms = 0, context_terms = 0 WHERE id = 1',
    [LEXICAL_INDEX_VERSION],
  );
  const tally = new LexicalTally();
  const sql = contextWindowSql();
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{
      seq: string | number;
      content: string;
      tags: string[];
      shares: boolean;
      near: (string | null)[] | null;
    }>(sql, [after, REBUILD_PAGE]);
    const update: { seq: number; context: string; body: string; lexical: string }[] = [];
    for (const row of rows) {
      const near = row.near ?? [];
      const present = (texts: (string | null)[]) => texts.filter((t): t is string => t !== null);
      const context = row.shares
        ? joinContext(present(near.slice(0, CONTEXT_BEFORE)), present(near.slice(CONTEXT_BEFORE)))
        : '';
      const fields = lexicalFields(row.content, row.tags, context);
      tally.add(fields, 1);
      update.push({
        seq: Number(row.seq),
        context,
        body: fields.body.join(' '),
        lexical: fields.context.join(' '),
      });
    }
    if (update.length > 0) {
      await db.query(
        `UPDATE memories m SET context = u.context, lexical_body = u.body, lexical_context = u.lexical
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(seq, context, body, lexical)
         WHERE m.seq = u.seq`,
        [
          update.map((u) => u.seq),
          update.map((u) => u.context),
          update.map((u) => u.body),
          update.map((u) => u.lexical),
        ],
      );
    }
    if (rows.length < REBUILD_PAGE) break;
    after = update.at(-1)!.seq;
  }
  await flushLexical(db, tally);
}

/**
 * Builds the index when another analyser or context rule built it, or none did (right after the v5
 * migration): every context derived again, every row's terms and the statistics written, in one
 * transaction under a lock, so processes opening the store at once build it exactly once. Returns
 * whether it rebuilt. With `deferLong` (a process on a deadline), throws STORE_BUSY instead when the
 * rebuild would cover more than `INLINE_REBUILD_MAX_ROWS` memories.
 */
export async function ensureLexicalIndex(
  db: PgLike,
  schema: string,
  deferLong?: { where: string },
): Promise<boolean> {
  if (!(await indexStale(db))) return false;
  // A process on a deadline (a hook) would hold the rebuild's transaction and lock for as long as it
  // takes, and be cut off by its deadline part way.
  if (deferLong !== undefined) {
    const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM memories');
    const count = Number(rows[0]?.n ?? 0);
    if (count > INLINE_REBUILD_MAX_ROWS) throw longRebuildRefused(deferLong.where, count);
  }
  return db.withConnection(async (conn) => {
    await conn.query('BEGIN');
    try {
      await conn.query('SELECT pg_advisory_xact_lock($1, $2)', [
        LOCK_CLASS.lexical,
        advisoryKey(schema),
      ]);
      const stale = await indexStale(conn);
      if (stale) await rebuild(conn);
      await conn.query('COMMIT');
      return stale;
    } catch (error) {
      await conn.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

/** Collection totals and the document frequency of each term. */
export async function lexicalStats(
  db: PgQueryable,
  terms: readonly string[],
): Promise<LexicalStats> {
  const totals = await db.query<{ docs: string; body_terms: string; context_terms: string }>(
    'SELECT docs, body_terms, context_terms FROM lexical_state WHERE id = 1',
  );
  const { rows } = await db.query<{ term: string; docs: string }>(
    'SELECT term, docs FROM lexical_terms WHERE term = ANY($1::text[])',
    [[...terms]],
  );
  const state = totals.rows[0];
  return {
    docs: Number(state?.docs ?? 0),
    fieldTerms: {
      body: Number(state?.body_terms ?? 0),
      context: Number(state?.context_terms ?? 0),
    },
    docFrequency: new Map(rows.map((row) => [row.term, Number(row.docs)])),
  };
}

/** Occurrences of each term in memories' own text (the body field), and all body terms. */
export async function bodyTermCounts(
  db: PgQueryable,
  terms: readonly string[],
): Promise<TermCounts> {
  const totals = await db.query<{ n: string }>(
    'SELECT body_terms AS n FROM lexical_state WHERE id = 1',
  );
  const counts = new Map<string, number>();
  if (terms.length > 0) {
    const { rows } = await db.query<{ term: string; body: string }>(
      'SELECT term, body FROM lexical_terms WHERE term = ANY($1::text[]) AND body > 0',
      [[...new Set(terms)]],
    );
    for (const row of rows) counts.set(row.term, Number(row.body));
  }
  return { total: Number(totals.rows[0]?.n ?? 0), counts };
}

/** Lexical candidates from the GIN index ordered by weighted ts_rank, re-scored with core's BM25F. */
export async function searchLexicalIn(
  db: PgQueryable,
  query: string,
  options: LexicalSearchOptions,
): Promise<LexicalHit[]> {
  const terms = analyzeQuery(query);
  if (terms.length === 0) return [];
  const params = options.bm25f ?? RECALL_BM25F;
  const limit = Math.floor(options.limit);
  const native = options.scoring === 'native';
  const pool = native ? limit : Math.max(limit, Math.floor(options.pool ?? lexicalPool(limit)));
  const built = lexicalCandidatesSql(terms, params.weights, options, pool);
  const { rows } = await db.query<{
    seq: string | number;
    id: string;
    content: string;
    tags: string[];
    context: string;
  }>(built.sql, built.params);
  if (rows.length === 0) return [];
  if (native) return rows.map((row, i) => ({ id: row.id, score: rows.length - i }));
  const candidates = rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  return rankCandidates(terms, candidates, await lexicalStats(db, terms), params, limit);
}

/** The saved state of a store-derived model, or undefined. */
export async function readModelState(
  db: PgQueryable,
  model: string,
): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<{ state: string }>(
    'SELECT state FROM model_state WHERE model = $1',
    [model],
  );
  return rows[0] === undefined ? undefined : (JSON.parse(rows[0].state) as Record<string, unknown>);
}

export async function writeModelState(
  db: PgQueryable,
  model: string,
  state: Record<string, unknown>,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO model_state (model, state, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (model) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    [model, JSON.stringify(state), at],
  );
}
