/**
 * The injection tiers as prompt recall applies them, over recorded recall results: what each question
 * would receive at given thresholds, and the thresholds chosen on a tuning split. Pure.
 */
import { MAX_INDEX_ITEMS, MAX_PROMPT_ITEMS } from '../../src/core/injection/prompt-recall.js';
import type { EvidencePath, RelevanceEvidence } from '../../src/core/ranking/relevance.js';

/** At most this many memories in full, and as index lines, per prompt: the hook's own limits. */
export const PER_TIER = { full: MAX_PROMPT_ITEMS, index: MAX_INDEX_ITEMS } as const;

export interface Query {
  id: string;
  path: EvidencePath;
  split: 'tune' | 'held-out';
  /** A prompt that needs no memory of the project it is asked in. */
  negative: boolean;
  hits: { evidence: RelevanceEvidence; needed: boolean }[];
}

export type ScoredQuery = Omit<Query, 'hits'> & {
  hits: { evidence: RelevanceEvidence; needed: boolean; p: number }[];
};

export interface Tiers {
  full: number;
  index: number;
}

/** The features of one hit in the order the path's model reads them. */
export function featuresOf(evidence: RelevanceEvidence, path: EvidencePath): number[] {
  const clamp = (v: number | undefined) => Math.max(-6, Math.min(6, v ?? 0));
  const concept = evidence.concept === true ? 1 : 0;
  const rank = Math.log2(Math.max(1, evidence.rank));
  const common = [evidence.coverage, clamp(evidence.lead), concept, rank, evidence.bestCoverage];
  return path === 'lexical' ? common : [...common, clamp(evidence.similarityZ)];
}

export interface TierOutcome {
  questions: number;
  /** Shares of the (non-negative) questions. */
  needed: number;
  full: number;
  index: number;
  wrongOnly: number;
  silent: number;
  negatives: number;
  /** Share of negative prompts that injected anything. */
  negativeAny: number;
  /** Of the memories injected in full, the share a question needed. */
  fullPrecision: number;
}

export function tierOutcomes(queries: readonly ScoredQuery[], tiers: Tiers): TierOutcome {
  let questions = 0;
  let full = 0;
  let index = 0;
  let wrongOnly = 0;
  let silent = 0;
  let negatives = 0;
  let negativeAny = 0;
  let fullItems = 0;
  let fullNeeded = 0;
  for (const query of queries) {
    const inFull = query.hits.filter((h) => h.p >= tiers.full).slice(0, PER_TIER.full);
    const asIndex = query.hits
      .filter((h) => h.p < tiers.full && h.p >= tiers.index)
      .slice(0, PER_TIER.index);
    const any = inFull.length + asIndex.length > 0;
    if (query.negative) {
      negatives += 1;
      if (any) negativeAny += 1;
      fullItems += inFull.length;
      continue;
    }
    questions += 1;
    fullItems += inFull.length;
    fullNeeded += inFull.filter((h) => h.needed).length;
    if (inFull.some((h) => h.needed)) full += 1;
    else if (asIndex.some((h) => h.needed)) index += 1;
    else if (any) wrongOnly += 1;
    else silent += 1;
  }
  const share = (v: number, of: number) => (of === 0 ? 0 : v / of);
  return {
    questions,
    needed: share(full + index, questions),
    full: share(full, questions),
    index: share(index, questions),
    wrongOnly: share(wrongOnly, questions),
    silent: share(silent, questions),
    negatives,
    negativeAny: share(negativeAny, negatives),
    fullPrecision: share(fullNeeded, fullItems),
  };
}

/** Limits the tiers are chosen to keep on the tuning split. */
export const TIER_LIMITS = { negativeAny: 0.025, fullPrecision: 0.5 } as const;

/**
 * The index threshold: the lowest on the grid at which at most 2.5 % of the prompts that need nothing
 * inject anything (a silent gate costs more than a one-line pointer, so the only hard limit on index
 * lines is noise in sessions that need none); the full threshold: the lowest at or above it whose
 * full-text injections are needed at least half the time. Both fall back to the grid's top.
 */
export function chooseTiers(queries: readonly ScoredQuery[], step = 0.025): Tiers {
  const grid: number[] = [];
  for (let t = step; t < 1; t += step) grid.push(Math.round(t * 1000) / 1000);
  const top = grid.at(-1)!;
  const index =
    grid.find((t) => {
      const o = tierOutcomes(queries, { full: 1, index: t });
      return o.negativeAny <= TIER_LIMITS.negativeAny;
    }) ?? top;
  const full =
    grid
      .filter((t) => t >= index)
      .find(
        (t) => tierOutcomes(queries, { full: t, index }).fullPrecision >= TIER_LIMITS.fullPrecision,
      ) ?? top;
  return { full, index };
}
