/**
 * The lexical document of a memory and how candidates are scored, shared by every backend: each indexes
 * the terms of core's analyser (core/text/analyze.ts) in two fields, body (content and tags) and context
 * (core/text/capture-context.ts), finds candidates with its own index, and hands them here to be scored
 * with core's BM25F from its term statistics. So the backends differ in which candidates their index
 * offers first, never in how a candidate scores.
 */
import { MemoryError } from '../core/errors.js';
import {
  type Bm25fParams,
  bm25fScore,
  bodyCoverage,
  countTerms,
  type FieldCounts,
  type LexicalStats,
} from '../core/ranking/bm25f.js';
import { ANALYZER_VERSION, analyzeText } from '../core/text/analyze.js';
import { CONTEXT_RULE_VERSION, contextLinesOf } from '../core/text/capture-context.js';
import type { LexicalHit } from './store.js';

/** What a lexical index is built from; stored with it, so a change of either rebuilds it on open. */
export const LEXICAL_INDEX_VERSION = `${ANALYZER_VERSION}+${CONTEXT_RULE_VERSION}`;

/** The columns of `memories` a row's lexical document and context are made of (both backends). */
export const LEXICAL_ROW_COLUMNS =
  'seq, content, tags, context, session_id, project_key, trust_band, quarantine';

/** `sharesContext` (core/text/capture-context.ts) as SQL over `memories`, the same in both dialects. */
export const SHARES_CONTEXT_SQL = `trust_band IN ('high', 'medium', 'low') AND quarantine <> 'rejected'`;

/** The analysed terms of a memory's two fields. */
export interface LexicalFields {
  body: string[];
  context: string[];
}

export function lexicalFields(
  content: string,
  tags: readonly string[],
  context: string,
): LexicalFields {
  return { body: analyzeText(bodyText(content, tags)), context: analyzeText(context) };
}

/** A memory's lexical document as BM25F scores it: the body, and the context by neighbour position. */
export function scoredDocument(
  content: string,
  tags: readonly string[],
  context: string,
): FieldCounts {
  return countTerms({
    body: analyzeText(bodyText(content, tags)),
    context: contextLinesOf(context).map(analyzeText),
  });
}

/** The text of the body field: content and tags. */
function bodyText(content: string, tags: readonly string[]): string {
  return tags.length === 0 ? content : `${content}\n${tags.join(' ')}`;
}

/**
 * Memories a process on a deadline (a hook) still rebuilds the lexical index over on open: about 0.2 s
 * on SQLite (the rebuild takes about 0.1 ms a memory; docs/benchmarks.md). Beyond it, the hook leaves the
 * rebuild to the engine or a command (`deferLongRebuild` of both adapters' open).
 */
export const INLINE_REBUILD_MAX_ROWS = 2000;

/** What a process on a deadline gets instead of rebuilding the index of `where` over `memories` rows. */
export function longRebuildRefused(where: string, memories: number): MemoryError {
  return new MemoryError(
    'STORE_BUSY',
    `The search index of ${where} must be rebuilt for this version of mnemo (${memories} memories), which ` +
      'a hook does not wait for. Run any mnemo command (mnemo doctor) or start the engine to rebuild it.',
  );
}

/**
 * Memories a term must be in before the index stops looking for it in the context field: below this a
 * store is small enough that every match is cheap to rank, so nothing changes (every benchmark store).
 */
export const COMMON_TERM_DOCS = 2000;

/**
 * The query terms worth finding in the context field: all but those held by more than
 * `COMMON_TERM_DOCS` memories. A memory that holds a common term only in its context (at half weight,
 * with a low IDF) ranks below the thousands holding it in their own text, so it could not reach the
 * pool; but its context postings roughly triple the rows the index must rank (at 100k memories a common
 * term matched ~33k rows). Such a memory is still found through any rarer query term, and every
 * candidate is scored on both fields whatever matched it.
 */
export function contextMatchTerms(terms: readonly string[], stats: LexicalStats): string[] {
  return terms.filter((term) => (stats.docFrequency.get(term) ?? 0) <= COMMON_TERM_DOCS);
}

/** A candidate from a backend's index, in the order the index ranked it. */
export interface LexicalCandidate {
  id: string;
  seq: number;
  content: string;
  tags: readonly string[];
  context: string;
}

/**
 * The best `limit` candidates by BM25F, ties by seq. A candidate that matched only in a field weighted 0
 * scores 0 and is not a match.
 */
export function rankCandidates(
  terms: readonly string[],
  candidates: readonly LexicalCandidate[],
  stats: LexicalStats,
  params: Bm25fParams,
  limit: number,
): LexicalHit[] {
  return candidates
    .map((row) => {
      const doc = scoredDocument(row.content, row.tags, row.context);
      return {
        id: row.id,
        seq: row.seq,
        score: bm25fScore(terms, doc, stats, params),
        coverage: bodyCoverage(terms, doc, stats),
      };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.seq - b.seq)
    .slice(0, limit)
    .map(({ id, score, coverage }) => ({ id, score, coverage }));
}
