/**
 * Parsers for option values. They run inside commander, so a bad value is reported as a usage error
 * naming the option, before any store is opened.
 */
import { InvalidArgumentError } from 'commander';

import { MAX_LIMIT } from '../config/limits.js';

/** Parses `--limit`: a whole number from 1 to MAX_LIMIT. */
export function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new InvalidArgumentError(`Give a whole number from 1 to ${MAX_LIMIT}.`);
  }
  return n;
}

/** Parses a TCP port: 0 (any free one) to 65535. */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > 65_535) {
    throw new InvalidArgumentError('Give a port from 0 (any free one) to 65535.');
  }
  return n;
}

/** Parses a count with no small upper bound (`import claude-code --limit <lines>`): a whole number ≥ 1. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('Give a whole number of at least 1.');
  }
  return n;
}

/** Collects a repeatable option (`--tag a --tag b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Collects a repeatable option restricted to `choices`, reporting a bad value as a usage error. */
export function collectChoice(
  choices: readonly string[],
): (value: string, previous: string[] | undefined) => string[] {
  return (value, previous) => {
    if (!choices.includes(value)) {
      throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    }
    return collect(value, previous);
  };
}

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
/** The longest duration option accepted: a week. */
const MAX_DURATION_MS = 7 * 24 * 3_600_000;

/** Parses a duration option (`500ms`, `30s`, `15m`, `1h`; `0` for none) into milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(value.trim());
  const amount = Number(match?.[1]);
  const unit = match?.[2] as keyof typeof DURATION_UNITS_MS | undefined;
  if (match === null || (unit === undefined && amount !== 0)) {
    throw new InvalidArgumentError('Give a duration like 30s, 15m or 1h (0 for none).');
  }
  const ms = amount * DURATION_UNITS_MS[unit ?? 'ms'];
  if (ms > MAX_DURATION_MS) throw new InvalidArgumentError('Give a duration of at most 7 days.');
  return ms;
}
