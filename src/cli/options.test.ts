import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';

import { parseDuration } from './options.js';

describe('parseDuration', () => {
  it('reads milliseconds, seconds, minutes and hours, and a bare 0', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration(' 2h ')).toBe(7_200_000);
    expect(parseDuration('0')).toBe(0);
  });

  it('refuses anything else as a usage error', () => {
    for (const value of ['', '15', '1.5m', '-1s', '10 m', '3d', 'soon', '169h']) {
      expect(() => parseDuration(value)).toThrow(InvalidArgumentError);
    }
  });
});
