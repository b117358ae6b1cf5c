/**
 * The write gate's decision, pure: given the incoming text, its origin, the bypass decision and the nearest
 * memories of the same project, decide whether to store it, merge it into an existing memory, or refuse
 * it. The service (`write/write-memory.ts`) does the I/O around it. Content never decides trust here: the
 * only content-derived input is lexical similarity, and it can only make a write *less* privileged (merged).
 */
import type { GateReason, QuarantineState } from '../memory.js';
import { hashableContent } from '../memory.js';
import { isMoreTrusted, type OriginClass, parseOriginClass } from '../origin/origin-class.js';
import type { BypassDecision } from '../privileges/privileges.js';
import { lexicalSimilarity } from './similarity.js';

/**
 * Similarity at or above which a write merges into an existing memory. Calibrated on the fixture pairs in
 * `decide-gate.calibration.test.ts` (re-captures that must merge, different facts that must not); a
 * constant, so merges do not drift with traffic. Change it only together with that fixture.
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.7;

/** How many nearest memories of the project the gate compares against. */
export const NEAR_DUPLICATE_CANDIDATES = 5;

/** An existing memory the gate may merge into. */
export interface GateCandidate {
  readonly id: string;
  readonly content: string;
  readonly origin: string;
  readonly quarantine: QuarantineState;
}

/** Input to {@link decideGate}. */
export interface GateInput {
  /** The sanitised text that would be stored. */
  readonly content: string;
  readonly origin: OriginClass;
  readonly bypass: BypassDecision;
  readonly candidates: readonly GateCandidate[];
  readonly threshold: number;
}

/** What the gate decided. `nearest` names the best near-duplicate that was deliberately not merged into. */
export type GateDecision =
  | {
      readonly action: 'store';
      readonly reason: Extract<GateReason, 'novel' | 'bypass_cue' | 'forced'>;
      readonly keptApartFrom?: { readonly id: string; readonly similarity: number };
    }
  | { readonly action: 'merge'; readonly targetId: string; readonly similarity: number }
  | {
      readonly action: 'reject';
      readonly reason: 'previously_rejected';
      readonly targetId: string;
      readonly similarity: number;
    };

/**
 * Decides store / merge / reject for one write.
 * - A bypass (a person's force, or an allowlisted origin with a cue) stores without the novelty check.
 * - An exact twin (same hashable text) is left to the store's content-hash dedupe: `store`.
 * - Otherwise the most similar candidate at or above the threshold, and not guarded (negation or number
 *   differs), is the merge target — but only if it is at least as trusted as the incoming origin, so a
 *   trusted statement is never swallowed by a less trusted look-alike. A target a person rejected
 *   refuses the write instead of resurrecting it.
 */
export function decideGate(input: GateInput): GateDecision {
  if (input.bypass.bypass) {
    return { action: 'store', reason: input.bypass.reason === 'cue' ? 'bypass_cue' : 'forced' };
  }
  const own = hashableContent(input.content);
  if (input.candidates.some((c) => hashableContent(c.content) === own)) {
    return { action: 'store', reason: 'novel' };
  }
  const scored = input.candidates
    .map((candidate) => ({ candidate, ...lexicalSimilarity(input.content, candidate.content) }))
    .filter((s) => s.score >= input.threshold && !s.guarded)
    .sort((a, b) => b.score - a.score || a.candidate.id.localeCompare(b.candidate.id));
  let keptApartFrom: { id: string; similarity: number } | undefined;
  for (const { candidate, score } of scored) {
    if (isMoreTrusted(input.origin, parseOriginClass(candidate.origin))) {
      keptApartFrom ??= { id: candidate.id, similarity: score };
      continue;
    }
    if (candidate.quarantine === 'rejected') {
      return {
        action: 'reject',
        reason: 'previously_rejected',
        targetId: candidate.id,
        similarity: score,
      };
    }
    return { action: 'merge', targetId: candidate.id, similarity: score };
  }
  return keptApartFrom === undefined
    ? { action: 'store', reason: 'novel' }
    : { action: 'store', reason: 'novel', keptApartFrom };
}

/** What to do when the store reports the exact same text already stored in the project. */
export type ExactDuplicateAction = 'merge' | 'supersede' | 'reject';

/**
 * Resolves an exact duplicate. A more trusted writer repeating text first stored from a less trusted origin
 * supersedes it (the text becomes theirs, the old row stays in history); a person's rejection is not undone
 * by an equal or less trusted writer; anything else is a plain merge.
 */
export function resolveExactDuplicate(
  incoming: OriginClass,
  existing: { readonly origin: string; readonly quarantine: QuarantineState },
): ExactDuplicateAction {
  if (isMoreTrusted(incoming, parseOriginClass(existing.origin))) return 'supersede';
  return existing.quarantine === 'rejected' ? 'reject' : 'merge';
}

/** Per-origin write budget in a window; an origin absent from `maxPerOrigin` is unlimited. */
export interface FloodLimit {
  readonly windowMinutes: number;
  readonly maxPerOrigin: Partial<Record<OriginClass, number>>;
}

/** Whether one more write of `origin` fits its budget, given `recent` writes in the window. */
export function withinFloodBudget(origin: OriginClass, recent: number, limit: FloodLimit): boolean {
  const max = limit.maxPerOrigin[parseOriginClass(origin)];
  return max === undefined || recent < max;
}
