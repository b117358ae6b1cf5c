/**
 * The distribution of read-time heat over a set of memories, in fixed buckets (the web viewer's
 * dashboard). Pure: heat is computed by `effectiveHeat` at the caller's `now`.
 */
import { effectiveHeat, HEAT_MAX, type HeatSubject } from './heat.js';

/** Lower bounds of the buckets; the last runs to HEAT_MAX. The first (below 0.01) is "cold": unused lately. */
export const HEAT_BUCKET_EDGES = [0, 0.01, 0.25, 0.5, 1, 2, 4, 7] as const;

export interface HeatBucket {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound (HEAT_MAX inclusive for the last). */
  to: number;
  count: number;
}

/** Empty buckets, to add samples to with {@link addToBuckets}. */
export function emptyHeatBuckets(): HeatBucket[] {
  return HEAT_BUCKET_EDGES.map((from, i) => ({
    from,
    to: HEAT_BUCKET_EDGES[i + 1] ?? HEAT_MAX,
    count: 0,
  }));
}

/** Adds each memory's heat at `now` (epoch ms) to its bucket; returns the buckets. */
export function addToBuckets(
  buckets: HeatBucket[],
  memories: readonly HeatSubject[],
  now: number,
): HeatBucket[] {
  for (const memory of memories) {
    const heat = effectiveHeat(memory, now);
    let index = 0;
    for (let i = HEAT_BUCKET_EDGES.length - 1; i >= 0; i -= 1) {
      if (heat >= (HEAT_BUCKET_EDGES[i] ?? 0)) {
        index = i;
        break;
      }
    }
    const bucket = buckets[index];
    if (bucket !== undefined) bucket.count += 1;
  }
  return buckets;
}
