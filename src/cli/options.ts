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
