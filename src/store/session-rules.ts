/**
 * Validation and constants of the per-session write-path state (taint windows, remember claims, flood
 * counts, daily counters), shared by every backend so both refuse the same inputs the same way.
 */
import { MemoryError } from '../core/errors.js';

/** Claims older than this are dead: no MCP call arrives a day after its hook. */
export const CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Rows removed per opportunistic prune, so no write ever pays for a large backlog at once. */
export const CLAIM_PRUNE_BATCH = 100;

/** Throws INVALID_INPUT unless `value` is a non-empty string. */
export function assertText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new MemoryError('INVALID_INPUT', `${what} must be a non-empty string.`);
  }
}

/** The UTC day of an ISO instant. */
export function utcDay(iso: string): string {
  return iso.slice(0, 10);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Throws INVALID_INPUT unless `value` is a YYYY-MM-DD day. */
export function assertDay(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(value))) {
    throw new MemoryError(
      'INVALID_INPUT',
      `"${String(value)}" is not a day; counters are read from a YYYY-MM-DD date on.`,
    );
  }
}

/** Throws INVALID_INPUT unless `maxAgeMs` is a finite number of milliseconds >= 0. */
export function assertMaxAge(maxAgeMs: number): void {
  if (!(maxAgeMs >= 0) || !Number.isFinite(maxAgeMs)) {
    throw new MemoryError(
      'INVALID_INPUT',
      'maxAgeMs must be a finite number of milliseconds >= 0.',
    );
  }
}

/** The ISO instant of `sinceIso`, normalised; throws INVALID_INPUT when it is not a time. */
export function normaliseInstant(sinceIso: string): string {
  const since = Date.parse(sinceIso);
  if (Number.isNaN(since)) {
    throw new MemoryError('INVALID_INPUT', `sinceIso "${sinceIso}" is not an ISO-8601 time.`);
  }
  return new Date(since).toISOString();
}

/** Throws INVALID_INPUT unless the counter name is text and the step an integer. */
export function assertCounterStep(name: string, by: number): void {
  assertText(name, 'A counter name');
  if (!Number.isSafeInteger(by)) {
    throw new MemoryError('INVALID_INPUT', `Counter increment ${by} is not an integer.`);
  }
}

/** Throws INVALID_INPUT unless a history page is asked for with a seq >= 0 and a limit of 1–10,000. */
export function assertPage(afterSeq: number, limit: number): { afterSeq: number; limit: number } {
  if (
    !Number.isSafeInteger(afterSeq) ||
    afterSeq < 0 ||
    !Number.isSafeInteger(limit) ||
    limit < 1 ||
    limit > 10_000
  ) {
    throw new MemoryError(
      'INVALID_INPUT',
      'A history page needs afterSeq >= 0 and a limit of 1–10000.',
    );
  }
  return { afterSeq, limit };
}
