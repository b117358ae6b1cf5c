/**
 * Heat: how much a memory has been genuinely used lately. Stored as `heatBase` at the last touch and
 * decayed lazily at read time, so nothing rewrites rows in the background and two readers at the same
 * `now` always agree. Heat only rises through `nextHeatOnUse` with `mayEarnHeat`; being shown in a recall
 * result is not use, or popular memories would heat themselves forever.
 */
import { MS_PER_DAY, parseIsoTimestamp } from './iso-time.js';
import { clamp, halfLifeDecay } from './recency.js';

/**
 * Time for unused heat to halve. Two weeks: a memory used daily during one task stays warm through the
 * task and cools within a month or two after it, without a cron job.
 */
export const HEAT_HALF_LIFE_DAYS = 14;

/** Heat added by one genuine use of a cold memory. Each use adds less as heat nears `HEAT_MAX`. */
export const HEAT_USE_INCREMENT = 1;

/**
 * Ceiling of heat. The increment shrinks in proportion to the remaining headroom, so no number of uses
 * (a loop, a chatty agent) can push heat past this, and stored values above it count as this.
 */
export const HEAT_MAX = 10;

/** The largest boost heat can give a score: 25 %, at RRF k = 60 enough to lift one leg's sixteenth place to
 * about its first. */
export const HEAT_BOOST_MAX = 0.25;

/** The heat at which half of `HEAT_BOOST_MAX` is reached. 3 ≈ a few recent uses. */
export const HEAT_HALF_SATURATION = 3;

/** The part of a memory heat reads (a `Memory` fits). */
export interface HeatSubject {
  heatBase: number;
  createdAt: string;
  updatedAt: string;
  lastAccessedAt: string | null;
}

export interface HeatOptions {
  halfLifeDays?: number;
}

/**
 * Heat at `now`, in [0, HEAT_MAX]: `heatBase` halved every `HEAT_HALF_LIFE_DAYS` since the last touch
 * (the later of `lastAccessedAt` and `updatedAt`, which is when `heatBase` was written). A memory whose
 * times cannot be parsed has no provable recent use and reads as 0.
 *
 * @param now epoch milliseconds, from the caller's clock.
 */
export function effectiveHeat(memory: HeatSubject, now: number, options: HeatOptions = {}): number {
  const base = clamp(memory.heatBase, 0, HEAT_MAX);
  if (base === 0) return 0;
  const touchedAt = lastTouch(memory);
  if (touchedAt === undefined) return 0;
  const halfLifeMs = (options.halfLifeDays ?? HEAT_HALF_LIFE_DAYS) * MS_PER_DAY;
  return base * halfLifeDecay(now - touchedAt, halfLifeMs);
}

/**
 * The `heatBase` to store together with `lastAccessedAt = now` when a memory is accessed. With
 * `mayEarnHeat` (the origin allowlist decides; this module does not know origins) heat rises by
 * `HEAT_USE_INCREMENT × (1 − heat / HEAT_MAX)`, so it approaches but never exceeds `HEAT_MAX`. Without it
 * the result is the decayed heat unchanged: writing the old `heatBase` with a fresh `lastAccessedAt`
 * would restart the decay, which is a rise by the back door.
 */
export function nextHeatOnUse(
  memory: HeatSubject,
  now: number,
  mayEarnHeat: boolean,
  options: HeatOptions = {},
): number {
  const heat = effectiveHeat(memory, now, options);
  if (!mayEarnHeat) return heat;
  return Math.min(HEAT_MAX, heat + HEAT_USE_INCREMENT * (1 - heat / HEAT_MAX));
}

/**
 * Score multiplier for a heat value: `1 + boostMax × h / (h + HEAT_HALF_SATURATION)`, in
 * [1, 1 + boostMax). Saturating, so heat separates used from unused memories but cannot let a
 * habitually used memory outrank one that the retrieval legs clearly prefer. `boostMax` defaults to
 * `HEAT_BOOST_MAX` (the session pack's ordering); recall passes its much smaller tie-break span
 * (`score.ts`). It is clamped to [0, HEAT_BOOST_MAX].
 */
export function heatFactor(heat: number, boostMax: number = HEAT_BOOST_MAX): number {
  const h = clamp(heat, 0, HEAT_MAX);
  return 1 + (clamp(boostMax, 0, HEAT_BOOST_MAX) * h) / (h + HEAT_HALF_SATURATION);
}

function lastTouch(memory: HeatSubject): number | undefined {
  const accessed =
    memory.lastAccessedAt === null ? undefined : parseIsoTimestamp(memory.lastAccessedAt);
  const updated = parseIsoTimestamp(memory.updatedAt);
  const touches = [accessed, updated].filter((t): t is number => t !== undefined);
  if (touches.length > 0) return Math.max(...touches);
  return parseIsoTimestamp(memory.createdAt);
}
