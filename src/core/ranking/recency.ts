/**
 * Recency: a bounded preference for newer memories, computed at read time from `createdAt`. In a code
 * base a decision from last quarter is usually still true, so age only tilts the ranking; it never buries
 * a memory that the retrieval legs agree on.
 */
import { MS_PER_DAY, parseIsoTimestamp } from './iso-time.js';

/**
 * Age at which a memory has lost half of the recency bonus it can lose. 30 days spans a typical feature
 * cycle: what was written this sprint outranks an equally relevant note from last quarter.
 */
export const RECENCY_HALF_LIFE_DAYS = 30;

/**
 * The factor an arbitrarily old memory keeps. With RRF's k = 60, a factor of 0.8 moves a first-place
 * candidate of one leg to roughly where a sixteenth place would sit: a tie-breaker, not a veto.
 */
export const RECENCY_FLOOR = 0.8;

export interface RecencyOptions {
  halfLifeDays?: number;
  floor?: number;
}

/** The part of a memory recency reads. */
export interface RecencySubject {
  createdAt: string;
  pinned: boolean;
}

/**
 * A factor in [floor, 1]: 1 for a memory created at `now` (or later: clock skew between writers must not
 * reward a memory), falling exponentially towards `floor` with the half-life. Pinned memories do not age:
 * pinning says "this stays relevant". An unparsable `createdAt` earns no bonus and gets the floor.
 *
 * @param now epoch milliseconds, from the caller's clock.
 */
export function recencyFactor(
  memory: RecencySubject,
  now: number,
  options: RecencyOptions = {},
): number {
  if (memory.pinned) return 1;
  const floor = clamp(options.floor ?? RECENCY_FLOOR, 0, 1);
  const createdAt = parseIsoTimestamp(memory.createdAt);
  if (createdAt === undefined) return floor;
  const halfLifeMs = (options.halfLifeDays ?? RECENCY_HALF_LIFE_DAYS) * MS_PER_DAY;
  return floor + (1 - floor) * halfLifeDecay(now - createdAt, halfLifeMs);
}

/**
 * `2^(-age / halfLife)`, in (0, 1]. Negative ages count as zero; a non-positive or non-finite half-life
 * means "never decays". Shared with heat so both use one definition of half-life.
 */
export function halfLifeDecay(ageMs: number, halfLifeMs: number): number {
  if (!(halfLifeMs > 0) || !Number.isFinite(halfLifeMs)) return 1;
  if (!(ageMs > 0)) return 1;
  return Math.pow(2, -ageMs / halfLifeMs);
}

export function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(max, Math.max(min, value));
}
