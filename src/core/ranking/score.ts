/**
 * The final score of a recall candidate: its fused RRF score times three bounded multipliers (recency,
 * heat, trust). Multiplying keeps relevance in charge: no factor can lift a candidate that no retrieval
 * leg returned, and the bounds cap how far any one factor can move a candidate, whatever the stored data
 * says. Recency and heat are tie-breakers (at most ±1 % each); trust is the one factor allowed to
 * overrule relevance, because it is a security decision (threat model R6). Every part is returned, so
 * `recall --explain` shows the working rather than a bare number.
 */
import { effectiveHeat, heatFactor, type HeatOptions, type HeatSubject } from './heat.js';
import { recencyFactor, type RecencyOptions, type RecencySubject } from './recency.js';
import { type FusedHit, signalRecord } from './rrf.js';

/**
 * How much recency can lower a recall score: the factor lies in [1 − span, 1]. Recency only orders
 * candidates whose fused evidence is nearly equal. On LoCoMo conversations 0–4 (strict, lexical leg,
 * RRF k = 60, `npm run bench:sweep`) MRR@10 was 0.483 at a span of 1 %, 0.445 at 5 % (recall's former
 * floor 0.95) and 0.304 at 20 % (the former default floor 0.8): a larger span sorts the top of a leg
 * by age. Questions about a long history are not biased towards its end, and neither are coding
 * decisions once superseded ones are filtered out.
 */
export const RECALL_RECENCY_SPAN = 0.01;

/** How much heat can raise a recall score: the factor lies in [1, 1 + span). A tie-breaker like recency. */
export const RECALL_HEAT_SPAN = 0.01;

/**
 * The smallest fused lead that recency and heat can never overturn: a candidate whose fused score is at
 * least `CLEAR_LEAD` times another's, at equal trust, ranks above it whatever their ages and heat
 * (≈ 1.0202). With recall's RRF k = 10 the gap between neighbouring ranks of one leg, `1 / (k + r)`, is
 * larger than that down to rank 39, so within a leg's top 40 the tie-breakers never swap neighbours.
 */
export const CLEAR_LEAD = (1 + RECALL_HEAT_SPAN) / (1 - RECALL_RECENCY_SPAN);

/**
 * The factor of the least trusted origin. Keeping untrusted memories out is the write gate's job; at read
 * time trust only tilts the ranking, and 0.5 means an untrusted memory needs about twice the fused
 * evidence of a trusted one (roughly: it must be returned by two legs where a trusted one needs one).
 */
export const MIN_TRUST_FACTOR = 0.5;

/** What scoring reads from a memory (a `Memory` fits). */
export type ScoreSubject = RecencySubject & HeatSubject;

export interface ScoreContext {
  /** Epoch milliseconds, from the caller's clock. */
  now: number;
  /** The trust band of the memory's origin, mapped by the caller to [minTrust, 1]; clamped to it. */
  trust: number;
  /** Lower bound of `trust`; defaults to `MIN_TRUST_FACTOR`. Must lie in [0, 1]. */
  minTrust?: number;
  /** Half-life and floor of recency; the floor is clamped to [1 − RECALL_RECENCY_SPAN, 1]. */
  recency?: RecencyOptions;
  heat?: HeatOptions;
}

/** The multipliers applied to the fused score, each within its documented bounds. */
export interface ScoreFactors {
  /** [1 − RECALL_RECENCY_SPAN, 1] */
  recency: number;
  /** [1, 1 + RECALL_HEAT_SPAN) */
  heat: number;
  /** [minTrust, 1] */
  trust: number;
}

export interface ScoredHit {
  id: string;
  /** `fusedScore × recency × heat × trust`. */
  score: number;
  fusedScore: number;
  /** 1-based rank in each retrieval leg that returned the candidate (from fusion). */
  ranks: Readonly<Record<string, number>>;
  /** Each leg's share of `score`: its RRF term times the same multipliers, so the shares add up to `score`. */
  contributions: Readonly<Record<string, number>>;
  factors: ScoreFactors;
  /** Effective heat at `now`, the input of `factors.heat`. */
  heat: number;
}

/**
 * Scores one fused candidate against its memory. The result is bounded:
 * `fusedScore × (1 − RECALL_RECENCY_SPAN) × minTrust ≤ score < fusedScore × (1 + RECALL_HEAT_SPAN)`,
 * so at equal trust a `CLEAR_LEAD` in fused score always survives scoring.
 */
export function scoreHit(hit: FusedHit, memory: ScoreSubject, context: ScoreContext): ScoredHit {
  const minTrust = Math.min(1, Math.max(0, context.minTrust ?? MIN_TRUST_FACTOR));
  const heat = effectiveHeat(memory, context.now, context.heat);
  // Written so that a NaN floor falls to the bound instead of through Math.max.
  const asked = context.recency?.floor ?? 0;
  const floor = asked > 1 - RECALL_RECENCY_SPAN ? Math.min(1, asked) : 1 - RECALL_RECENCY_SPAN;
  const factors: ScoreFactors = {
    recency: recencyFactor(memory, context.now, { ...context.recency, floor }),
    heat: heatFactor(heat, RECALL_HEAT_SPAN),
    // NaN (an unmapped origin) is the least trusted value, not a free pass.
    trust: Number.isNaN(context.trust) ? minTrust : Math.min(1, Math.max(minTrust, context.trust)),
  };
  const multiplier = factors.recency * factors.heat * factors.trust;
  return {
    id: hit.id,
    score: hit.score * multiplier,
    fusedScore: hit.score,
    ranks: hit.ranks,
    contributions: signalRecord(
      Object.entries(hit.contributions).map(([signal, value]) => [signal, value * multiplier]),
    ),
    factors,
    heat,
  };
}

export interface RankContext<M extends ScoreSubject> extends Omit<ScoreContext, 'trust'> {
  /** The trust number of a memory's origin (see `ScoreContext.trust`). */
  trustOf: (memory: M) => number;
}

/**
 * Scores fused candidates and sorts them best first (ties: higher fused score, then id). Candidates whose
 * memory is missing from `memories` are dropped: a leg may return an id that was deleted before the rows
 * were fetched, and a recall must not fail on that race.
 */
export function rankHits<M extends ScoreSubject>(
  hits: readonly FusedHit[],
  memories: ReadonlyMap<string, M>,
  context: RankContext<M>,
): ScoredHit[] {
  const scored: ScoredHit[] = [];
  for (const hit of hits) {
    const memory = memories.get(hit.id);
    if (memory === undefined) continue;
    scored.push(scoreHit(hit, memory, { ...context, trust: context.trustOf(memory) }));
  }
  return scored.sort(
    (a, b) =>
      b.score - a.score || b.fusedScore - a.fusedScore || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
