/**
 * Tuned lexical scoring: BM25F over a memory's fields (its own text and the text around it when it was
 * captured), computed in core from term statistics so every backend scores alike and k1, b and the field
 * weights can be set (SQLite's built-in `bm25()` fixes k1 = 1.2 and b = 0.75). The variant is the simple
 * BM25F of Robertson & Zaragoza (2009, §3.4) with one b: a term's frequency is the weighted sum of its
 * field frequencies, the document length the same weighted sum of field lengths, and the saturation is
 * applied once to the sum. IDF is Lucene's non-negative form. Pure.
 */

/** The fields of a memory's lexical document. `body` holds content and tags; `context` the text around. */
export type LexicalField = 'body' | 'context';
export const LEXICAL_FIELDS: readonly LexicalField[] = ['body', 'context'];

export interface Bm25fParams {
  k1: number;
  b: number;
  /**
   * Relative weight of each field's term counts and length. The context's is also its column weight in
   * the backends' own index (which orders candidates), and the weight of every context line when
   * `contextLines` is not given.
   */
  weights: Readonly<Record<LexicalField, number>>;
  /**
   * Weight of each context line by the neighbour's position (core/text/capture-context.ts
   * `contextLinesOf`: the ones before, oldest first, then the ones after, nearest first); a line
   * beyond the list weighs `weights.context`.
   */
  contextLines?: readonly number[];
  /**
   * Body length in terms up to which the context keeps its weights; a longer body scales them by
   * `contextReference / length`. A one-line turn needs its neighbours to be found (the question's words
   * are often in the turn before), a paragraph carries its own words, and there the neighbours' text
   * only lets a neighbour outrank the memory that holds the answer. Undefined: no scaling.
   */
  contextReference?: number;
}

/**
 * The recall setting, chosen on LoCoMo conversations 0–4 only (`npm run bench:sweep`, docs/benchmarks.md).
 * b 0.2 because memory lengths vary by two orders of magnitude (1–87 words a dialogue turn), so a strong
 * length penalty buries the long, informative ones. Context lines weigh by position: the two neighbours
 * before at half the memory's own text, the next one at 0.3, the one after it at 0.1, so the context helps
 * find a memory without making its neighbours indistinguishable from it. Hook path (no embedder) R@10 /
 * MRR@10: one weight of 0.5 for every line 0.850 / 0.578, these weights 0.853 / 0.583 (k1 0.9:
 * 0.851 / 0.579). Context of a body over 80 terms is scaled by 80 / length (`contextReference`): on the
 * long-turn set (LoCoMo turns merged into 180–400-word memories, conversations 0–4, hook path,
 * `npm run bench:sweep -- --dataset locomo-long --set contextRef=none,20,40,80`) MRR@10 went from 0.770
 * to 0.787 (R@10 0.948 → 0.949); on LoCoMo's own turns, almost all shorter than 80 terms, 0.583 either way.
 */
export const RECALL_BM25F: Bm25fParams = {
  k1: 1.2,
  b: 0.2,
  weights: { body: 1, context: 0.5 },
  contextLines: [0.5, 0.5, 0.3, 0.1],
  contextReference: 80,
};

/** The smallest pool of candidates re-scored per lexical search. */
export const MIN_LEXICAL_POOL = 50;

/**
 * Candidates re-scored per lexical search: the backend's index orders matches by its own bm25 with fixed
 * k1 and b, so BM25F gets a pool at least `MIN_LEXICAL_POOL` deep to reorder the top. The index's order
 * is already close: on LoCoMo 0–4 (`npm run bench:sweep -- --set lexicalPool=…`, recall's depth 30)
 * pools of 30, 50, 100 and 180 scored within 0.002 R@10 / MRR@10 of each other with and without the
 * sentence model, and every candidate re-scored costs its text's analysis on each query (the pool was
 * max(100, 3 × limit) before: 180 candidates for a hook's prompt recall).
 */
export function lexicalPool(limit: number): number {
  return Math.max(MIN_LEXICAL_POOL, limit);
}

/** Collection statistics: documents, total terms per field, and documents holding each query term. */
export interface LexicalStats {
  docs: number;
  fieldTerms: Readonly<Record<LexicalField, number>>;
  /** Documents holding the term in any field; a term absent here counts as held by none. */
  docFrequency: ReadonlyMap<string, number>;
}

/** Term counts of one field (or one context line) and its length in terms. */
export interface TermCounts {
  counts: ReadonlyMap<string, number>;
  length: number;
}

/** One document: its body, and its context line by line (position k = `contextLines[k]`). */
export interface FieldCounts {
  body: TermCounts;
  context: readonly TermCounts[];
}

/** Term counts of analysed terms: the body's, and each context line's. */
export function countTerms(fields: {
  body: readonly string[];
  context: readonly (readonly string[])[];
}): FieldCounts {
  const tally = (terms: readonly string[]): TermCounts => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { counts, length: terms.length };
  };
  return { body: tally(fields.body), context: fields.context.map(tally) };
}

/** Lucene's IDF: ln(1 + (N − n + 0.5) / (n + 0.5)), never negative. */
export function idf(docs: number, docFrequency: number): number {
  const n = Math.min(Math.max(0, docFrequency), Math.max(0, docs));
  return Math.log(1 + (Math.max(0, docs) - n + 0.5) / (n + 0.5));
}

function lineWeight(params: Bm25fParams, line: number): number {
  return Math.max(0, params.contextLines?.[line] ?? params.weights.context);
}

/**
 * What one context term weighs on average in the collection's length: the mean of the line weights.
 * The collection keeps one total for the context field, not one per position; in a session every
 * memory stands at each position of about as many others, so the positions hold about equal shares.
 */
function meanLineWeight(params: Bm25fParams): number {
  const lines = params.contextLines;
  if (lines === undefined || lines.length === 0) return Math.max(0, params.weights.context);
  return lines.reduce((sum, w) => sum + Math.max(0, w), 0) / lines.length;
}

/**
 * The share of the query's weight that the document's own text holds: Σ idf of the distinct `terms` in
 * the body over Σ idf of all of them, in [0, 1]. Unlike the BM25F score it does not grow with the corpus
 * or the query's length, and the context field does not count: a neighbour's words can help find a
 * memory, never make it look like an answer (core/ranking/relevance.ts reads it as evidence). 0 for a
 * query without terms.
 */
export function bodyCoverage(
  terms: readonly string[],
  doc: FieldCounts,
  stats: LexicalStats,
): number {
  let held = 0;
  let all = 0;
  for (const term of new Set(terms)) {
    const weight = idf(stats.docs, stats.docFrequency.get(term) ?? 0);
    all += weight;
    if ((doc.body.counts.get(term) ?? 0) > 0) held += weight;
  }
  return all > 0 ? held / all : 0;
}

/**
 * The BM25F score of one document for the distinct `terms` of a query. 0 when no term occurs.
 * Non-finite or negative parameters are a wiring mistake and make every score 0 rather than NaN.
 */
export function bm25fScore(
  terms: readonly string[],
  doc: FieldCounts,
  stats: LexicalStats,
  params: Bm25fParams,
): number {
  const { k1, b } = params;
  if (!(k1 >= 0) || !(b >= 0 && b <= 1) || stats.docs <= 0) return 0;
  const bodyWeight = Math.max(0, params.weights.body);
  const avgLength =
    (bodyWeight * stats.fieldTerms.body + meanLineWeight(params) * stats.fieldTerms.context) /
    stats.docs;
  const reference = params.contextReference;
  const scale =
    reference === undefined || !(reference > 0) || doc.body.length <= reference
      ? 1
      : reference / doc.body.length;
  const lines = doc.context.map((line, k) => ({ line, weight: scale * lineWeight(params, k) }));
  let length = bodyWeight * doc.body.length;
  for (const { line, weight } of lines) length += weight * line.length;
  const norm = k1 * (1 - b + (avgLength > 0 ? (b * length) / avgLength : b));
  let score = 0;
  for (const term of new Set(terms)) {
    let tf = bodyWeight * (doc.body.counts.get(term) ?? 0);
    for (const { line, weight } of lines) tf += weight * (line.counts.get(term) ?? 0);
    if (tf === 0) continue;
    score += (idf(stats.docs, stats.docFrequency.get(term) ?? 0) * tf * (k1 + 1)) / (tf + norm);
  }
  return score;
}
