/**
 * The trust factor of recall: a bounded multiplier per trust band of a memory's origin. Keeping untrusted
 * memories out is the write gate's job; at read time trust tilts the ranking so that a deliberate fact
 * outranks a near-duplicate from the network that matches the query better (threat model R6).
 */
import { parseOriginClass, type TrustBand, trustBand } from '../core/origin/origin-class.js';
import { MIN_TRUST_FACTOR } from '../core/ranking/score.js';

/**
 * Band → factor. `untrusted` sits at `MIN_TRUST_FACTOR` (0.5): with recall's RRF k = 10, an untrusted
 * memory ranked first by some legs (1/11 each, halved) loses to a trusted one that the same legs rank
 * anywhere in their top 11 (1/21 or more each), and Cortex's calibration found a factor ≤ 0.7 necessary
 * for the poisoning cases. Recency and heat cannot undo that: together they move a score by about 2 %. `low`
 * (third-party files, command output) keeps 0.75; `medium` (the agent, its own edits) 0.9: a small
 * preference for what a person said.
 */
export const TRUST_FACTORS: Readonly<Record<TrustBand, number>> = {
  high: 1,
  medium: 0.9,
  low: 0.75,
  untrusted: MIN_TRUST_FACTOR,
};

/** The band of a stored origin; anything outside the vocabulary is `untrusted` (fail closed). */
export function bandOfOrigin(origin: string): TrustBand {
  return trustBand(parseOriginClass(origin));
}

/** The trust factor of a stored origin, in [MIN_TRUST_FACTOR, 1]. */
export function trustFactorOf(origin: string): number {
  return TRUST_FACTORS[bandOfOrigin(origin)];
}
