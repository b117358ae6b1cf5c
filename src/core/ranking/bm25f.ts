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
  /** Relative weight of each field's term counts and length. */
  weights: Readonly<Record<LexicalField, number>>;
}

/**
 * The recall setting, chosen on LoCoMo conversations 0–4 only (`npm run bench:sweep`, docs/benchmarks.md:
 * hook path R@10 0.847 against 0.840 for k1 0.9): b 0.2 because memory lengths vary by two orders of
 * magnitude (1–87 words a dialogue turn), so a strong length penalty buries the long, informative ones;
 * context at half the memory's own text (0.25 and 0.35 scored lower), so it helps find a memory without
 * making its neighbours indistinguishable from it.
 */
export const RECALL_BM25F: Bm25fParams = {
  k1: 1.2,
  b: 0.2,
  weights: { body: 1, context: 0.5 },
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

/** One document as term counts per field and field lengths (in terms). */
export interface FieldCounts {
  counts: Readonly<Record<LexicalField, ReadonlyMap<string, number>>>;
  lengths: Readonly<Record<LexicalField, number>>;
}

/** Term counts of analysed field terms. */
export function countTerms(fields: Readonly<Record<LexicalField, readonly string[]>>): FieldCounts {
  const tally = (terms: readonly string[]): Map<string, number> => {
    const map = new Map<string, number>();
    for (const term of terms) map.set(term, (map.get(term) ?? 0) + 1);
    return map;
  };
  return {
    counts: { body: tally(fields.body), context: tally(fields.context) },
    lengths: { body: fields.body.length, context: fields.context.length },
  };
}

/** Lucene's IDF: ln(1 + (N − n + 0.5) / (n + 0.5)), never negative. */
export function idf(docs: number, docFrequency: number): number {
  const n = Math.min(Math.max(0, docFrequency), Math.max(0, docs));
  return Math.log(1 + (Math.max(0, docs) - n + 0.5) / (n + 0.5));
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
  const { k1, b, weights } = params;
  if (!(k1 >= 0) || !(b >= 0 && b <= 1) || stats.docs <= 0) return 0;
  let avgLength = 0;
  let length = 0;
  for (const field of LEXICAL_FIELDS) {
    const w = Math.max(0, weights[field]);
    avgLength += (w * stats.fieldTerms[field]) / stats.docs;
    length += w * doc.lengths[field];
  }
  const norm = k1 * (1 - b + (avgLength > 0 ? (b * length) / avgLength : b));
  let score = 0;
  for (const term of new Set(terms)) {
    let tf = 0;
    for (const field of LEXICAL_FIELDS) {
      tf += Math.max(0, weights[field]) * (doc.counts[field].get(term) ?? 0);
    }
    if (tf === 0) continue;
    score += (idf(stats.docs, stats.docFrequency.get(term) ?? 0) * tf * (k1 + 1)) / (tf + norm);
  }
  return score;
}
