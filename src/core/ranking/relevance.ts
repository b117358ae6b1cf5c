/**
 * Calibrated relevance: how likely a recalled memory is to be what the query needs, as a probability
 * read from recall's own evidence, comparable across queries, stores and store sizes. A rank is
 * relative (the best of a poor lot still ranks first), so deciding what to push into a session needs
 * an absolute number; this is it, and `mnemo recall` and the web search show the same number.
 *
 * Evidence, each independent of the pool's size:
 * - `coverage`: the idf-weighted share of the query's terms the memory's own text holds (context does
 *   not count), against the corpus' document frequencies (core/ranking/bm25f.ts `bodyCoverage`);
 * - `similarityZ`: the dense leg's cosine standardised against its null, the cosines of the same query to
 *   the rest of the candidate pool (most of which is unrelated), so a model's general level of
 *   similarity does not read as relevance; absent without a dense leg (the engine-down hook path);
 * - `lead`: the memory's fused total minus the best other candidate's, in the legs' z units: positive
 *   for a clear first place, negative below it;
 * - `rank` (read as log2) and `bestCoverage`, the best coverage of any candidate: how much of the query
 *   the store answers at all, which is what tells a question about this project from chit-chat;
 * - `concept`: the concept leg found it (it names a tool of the kind the query asks about); its
 *   coverage then counts the cue's words as held (core/text/concepts.ts `cueCoverage`).
 *
 * The value is a logistic of a linear score, one model per path (lexical evidence only, and with a
 * dense leg), fit by `npm run bench:calibrate` on tuning splits and checked on held-out ones
 * (docs/benchmarks.md, "Calibrated relevance"). Pure.
 */

export interface RelevanceEvidence {
  /** In [0, 1]. */
  coverage: number;
  /** Standardised dense similarity; undefined when no dense leg ran. */
  similarityZ?: number;
  /** Fused total minus the best other candidate's. */
  lead: number;
  /** Its 1-based place in recall's final order. */
  rank: number;
  /** The best coverage any candidate of this recall reached: how much of the query the store answers at all. */
  bestCoverage: number;
  /** The concept leg returned it: it names a thing of the kind the query asks about (core/text/concepts.ts). */
  concept?: boolean;
}

/** Coefficients of one logistic model. */
export interface RelevanceModel {
  intercept: number;
  coverage: number;
  similarityZ: number;
  lead: number;
  concept: number;
  /** Weight of log2(rank). */
  rank: number;
  bestCoverage: number;
}

export type EvidencePath = 'lexical' | 'dense';

/**
 * Sentence models the dense model was fit for. Another model's cosines have another null distribution
 * and another meaning of a standard deviation, so its hits are read with the lexical model instead of
 * being read wrongly (`npm run bench:calibrate` fits for the engine's default, USE lite).
 */
export const CALIBRATED_DENSE_MODELS: readonly string[] = ['use-lite-512'];

/** Fit by `npm run bench:calibrate` (bench/calibrate/run.ts); see docs/benchmarks.md for the split. */
export const RELEVANCE_MODELS: Readonly<Record<EvidencePath, RelevanceModel>> = {
  lexical: {
    intercept: -3.057,
    coverage: 1.959,
    similarityZ: 0,
    lead: 0.122,
    concept: 0.568,
    rank: -0.355,
    bestCoverage: 1.645,
  },
  dense: {
    intercept: -4.173,
    coverage: 1.404,
    similarityZ: 0.809,
    lead: 0.078,
    concept: 0.42,
    rank: -0.199,
    bestCoverage: 1.314,
  },
};

/** Bounds that keep a stray input from saturating the score (a z of 40 on a degenerate pool). */
const CLAMP = { similarityZ: 6, lead: 6 } as const;

/** Which model reads this evidence. */
export function evidencePath(evidence: RelevanceEvidence): EvidencePath {
  return evidence.similarityZ === undefined ? 'lexical' : 'dense';
}

/** The calibrated probability in (0, 1). Non-finite evidence counts as none. */
export function calibratedRelevance(
  evidence: RelevanceEvidence,
  models: Readonly<Record<EvidencePath, RelevanceModel>> = RELEVANCE_MODELS,
): number {
  const model = models[evidencePath(evidence)];
  const finite = (v: number | undefined, bound: number) =>
    v === undefined || !Number.isFinite(v) ? 0 : Math.max(-bound, Math.min(bound, v));
  const coverage = Number.isFinite(evidence.coverage)
    ? Math.max(0, Math.min(1, evidence.coverage))
    : 0;
  const linear =
    model.intercept +
    model.coverage * coverage +
    model.similarityZ * finite(evidence.similarityZ, CLAMP.similarityZ) +
    model.lead * finite(evidence.lead, CLAMP.lead) +
    (evidence.concept === true ? model.concept : 0) +
    model.rank * Math.log2(Math.max(1, Number.isFinite(evidence.rank) ? evidence.rank : 1)) +
    model.bestCoverage *
      Math.max(0, Math.min(1, Number.isFinite(evidence.bestCoverage) ? evidence.bestCoverage : 0));
  return 1 / (1 + Math.exp(-linear));
}

/**
 * The tiers of proactive injection by calibrated relevance, per path: `full` injects the memory's text,
 * `index` a one-line pointer (id, kind, age, first words) the agent can open with `get_memory`; below
 * `index` nothing. Chosen by `npm run bench:calibrate` on the tuning split (docs/benchmarks.md).
 */
export const RELEVANCE_TIERS: Readonly<Record<EvidencePath, { full: number; index: number }>> = {
  lexical: { full: 0.2, index: 0.15 },
  dense: { full: 0.25, index: 0.25 },
};

/** The lowest calibrated relevance `recall` calls relevant (the index tier of the path). */
export function relevanceFloor(path: EvidencePath): number {
  return RELEVANCE_TIERS[path].index;
}

export type RelevanceTier = 'full' | 'index' | 'none';

export function relevanceTier(
  relevance: number,
  path: EvidencePath,
  tiers: Readonly<Record<EvidencePath, { full: number; index: number }>> = RELEVANCE_TIERS,
): RelevanceTier {
  const { full, index } = tiers[path];
  return relevance >= full ? 'full' : relevance >= index ? 'index' : 'none';
}
