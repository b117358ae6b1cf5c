/**
 * Rules for the write path's provenance and review fields (schema v2), checked before a write takes
 * the lock so a bad value is refused with a next step instead of surfacing as a CHECK violation.
 */
import {
  GATE_REASONS,
  type GateReason,
  QUARANTINE_STATES,
  type QuarantineState,
} from '../../core/memory.js';
import { parseOriginClass, TRUST_BANDS } from '../../core/origin/origin-class.js';
import { requiresReview } from '../../core/privileges/privileges.js';

/**
 * The review state an origin gets when the writer did not choose one: 'pending' exactly where
 * `requiresReview` holds. The v2 migration backfills existing rows with the same rule, and import of a
 * v1-era export uses it too.
 */
export function defaultQuarantine(origin: string): QuarantineState {
  return requiresReview(parseOriginClass(origin)) ? 'pending' : 'none';
}

export function isQuarantineState(value: unknown): value is QuarantineState {
  return typeof value === 'string' && (QUARANTINE_STATES as readonly string[]).includes(value);
}

function isGateReason(value: unknown): value is GateReason {
  return typeof value === 'string' && (GATE_REASONS as readonly string[]).includes(value);
}

/** Throws `fail(why)` unless the v2 fields hold values the schema accepts. */
export function assertWriteFields(
  fields: {
    tainted: unknown;
    quarantine: unknown;
    redactions: unknown;
    gateReason: unknown;
    trustBand?: unknown;
  },
  fail: (why: string) => Error,
): void {
  if (typeof fields.tainted !== 'boolean') throw fail('tainted must be true or false');
  if (!isQuarantineState(fields.quarantine)) {
    throw fail(`quarantine must be one of ${QUARANTINE_STATES.join(', ')}`);
  }
  if (!Number.isSafeInteger(fields.redactions) || (fields.redactions as number) < 0) {
    throw fail('redactions must be a count (an integer >= 0)');
  }
  if (!isGateReason(fields.gateReason)) {
    throw fail(`gateReason must be one of ${GATE_REASONS.join(', ')}`);
  }
  if ('trustBand' in fields && !(TRUST_BANDS as readonly unknown[]).includes(fields.trustBand)) {
    throw fail(`trustBand must be one of ${TRUST_BANDS.join(', ')}`);
  }
}
