/**
 * The one place staleness lowers a recall ranking: after fusion and scoring, every stale memory's score is
 * multiplied by `STALE_RANK_FACTOR` and the list re-sorted (stable). Applied to the hits a recall returns,
 * whoever computed them (this process or the resident engine), so it cannot be lost in a fusion change and
 * never pushes a hit out of the list: a stale memory is ranked lower, not withheld. Pure.
 */
import { type MemoryStaleness, staleRankFactor } from '../anchors/staleness.js';

/** The demoted hit: its score times the factor, and the factor itself (1 when fresh). */
export type Demoted<T> = T & { readonly staleFactor: number };

/** Re-ranks `hits` (best first) with each memory's stale factor; ties keep their order. */
export function demoteStale<T extends { readonly score: number; readonly memory: { id: string } }>(
  hits: readonly T[],
  stalenessOf: (id: string) => MemoryStaleness | undefined,
): Demoted<T>[] {
  return hits
    .map((hit, index) => {
      const staleFactor = staleRankFactor(stalenessOf(hit.memory.id));
      return { hit: { ...hit, score: hit.score * staleFactor, staleFactor }, index };
    })
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map((entry) => entry.hit);
}
