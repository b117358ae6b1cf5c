import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MS_PER_DAY } from './iso-time.js';
import {
  halfLifeDecay,
  RECENCY_FLOOR,
  RECENCY_HALF_LIFE_DAYS,
  recencyFactor,
  type RecencySubject,
} from './recency.js';

const NOW = Date.UTC(2025, 0, 1);
const daysAgo = (days: number) => new Date(NOW - days * MS_PER_DAY).toISOString();
const memory = (createdAt: string, pinned = false): RecencySubject => ({ createdAt, pinned });

describe('recencyFactor', () => {
  it('is 1 for a memory created now', () => {
    expect(recencyFactor(memory(daysAgo(0)), NOW)).toBe(1);
  });

  it('loses half of what it can lose after one half-life', () => {
    expect(recencyFactor(memory(daysAgo(RECENCY_HALF_LIFE_DAYS)), NOW)).toBeCloseTo(
      RECENCY_FLOOR + (1 - RECENCY_FLOOR) / 2,
      12,
    );
  });

  it('never falls below the floor, however old the memory', () => {
    expect(recencyFactor(memory(daysAgo(100_000)), NOW)).toBeCloseTo(RECENCY_FLOOR, 12);
    expect(recencyFactor(memory('0001-01-01T00:00:00.000Z'), NOW)).toBeGreaterThanOrEqual(
      RECENCY_FLOOR,
    );
  });

  it('does not rise with age', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -10, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (age, more) => {
          const younger = recencyFactor(memory(daysAgo(age)), NOW);
          const older = recencyFactor(memory(daysAgo(age + more)), NOW);
          expect(older).toBeLessThanOrEqual(younger);
          expect(older).toBeGreaterThanOrEqual(RECENCY_FLOOR);
          expect(younger).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('gives a memory dated in the future no more than a memory created now', () => {
    expect(recencyFactor(memory(daysAgo(-3)), NOW)).toBe(1);
  });

  it('does not age a pinned memory', () => {
    expect(recencyFactor(memory(daysAgo(365), true), NOW)).toBe(1);
  });

  it('gives an unparsable creation time the floor', () => {
    expect(recencyFactor(memory('last tuesday'), NOW)).toBe(RECENCY_FLOOR);
  });

  it('honours a custom half-life and floor', () => {
    expect(recencyFactor(memory(daysAgo(7)), NOW, { halfLifeDays: 7, floor: 0 })).toBeCloseTo(
      0.5,
      12,
    );
  });
});

describe('halfLifeDecay', () => {
  it('halves per half-life and treats a bad half-life as no decay', () => {
    expect(halfLifeDecay(2 * MS_PER_DAY, MS_PER_DAY)).toBeCloseTo(0.25, 12);
    expect(halfLifeDecay(-5, MS_PER_DAY)).toBe(1);
    expect(halfLifeDecay(MS_PER_DAY, 0)).toBe(1);
    expect(halfLifeDecay(MS_PER_DAY, Number.NaN)).toBe(1);
  });
});
