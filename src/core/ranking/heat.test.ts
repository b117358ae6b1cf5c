import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  effectiveHeat,
  HEAT_BOOST_MAX,
  HEAT_HALF_LIFE_DAYS,
  HEAT_MAX,
  HEAT_USE_INCREMENT,
  heatFactor,
  type HeatSubject,
  nextHeatOnUse,
} from './heat.js';
import { MS_PER_DAY } from './iso-time.js';

const NOW = Date.UTC(2025, 0, 1);
const at = (ms: number) => new Date(ms).toISOString();
const daysAgo = (days: number) => at(NOW - days * MS_PER_DAY);

function memory(overrides: Partial<HeatSubject> = {}): HeatSubject {
  return {
    heatBase: 4,
    createdAt: daysAgo(100),
    updatedAt: daysAgo(0),
    lastAccessedAt: null,
    ...overrides,
  };
}

describe('effectiveHeat', () => {
  it('is the stored heat at the moment it was stored', () => {
    expect(effectiveHeat(memory(), NOW)).toBe(4);
  });

  it('halves every half-life since the last touch', () => {
    const m = memory({ updatedAt: daysAgo(HEAT_HALF_LIFE_DAYS) });
    expect(effectiveHeat(m, NOW)).toBeCloseTo(2, 12);
    expect(effectiveHeat(m, NOW + HEAT_HALF_LIFE_DAYS * MS_PER_DAY)).toBeCloseTo(1, 12);
  });

  it('decays from the later of the last access and the last update', () => {
    const accessedLater = memory({ updatedAt: daysAgo(28), lastAccessedAt: daysAgo(14) });
    const updatedLater = memory({ updatedAt: daysAgo(14), lastAccessedAt: daysAgo(28) });
    expect(effectiveHeat(accessedLater, NOW)).toBeCloseTo(2, 12);
    expect(effectiveHeat(updatedLater, NOW)).toBeCloseTo(2, 12);
  });

  it('counts stored heat above the ceiling as the ceiling and negative heat as none', () => {
    expect(effectiveHeat(memory({ heatBase: 1e9 }), NOW)).toBe(HEAT_MAX);
    expect(effectiveHeat(memory({ heatBase: -3 }), NOW)).toBe(0);
    expect(effectiveHeat(memory({ heatBase: Number.NaN }), NOW)).toBe(0);
  });

  it('reads as cold when no time of the memory can be parsed', () => {
    const m = memory({ createdAt: 'x', updatedAt: 'y', lastAccessedAt: 'z' });
    expect(effectiveHeat(m, NOW)).toBe(0);
  });

  it('does not grow when the last touch lies in the future', () => {
    expect(effectiveHeat(memory({ updatedAt: daysAgo(-30) }), NOW)).toBe(4);
  });
});

describe('nextHeatOnUse', () => {
  it('adds one increment to a cold memory on genuine use', () => {
    const cold = memory({ heatBase: 0 });
    expect(nextHeatOnUse(cold, NOW, true)).toBe(HEAT_USE_INCREMENT);
  });

  it('adds less to a warm memory than to a cold one', () => {
    const warm = memory({ heatBase: HEAT_MAX / 2 });
    expect(nextHeatOnUse(warm, NOW, true) - HEAT_MAX / 2).toBeCloseTo(HEAT_USE_INCREMENT / 2, 12);
  });

  it('returns the decayed heat, not the stored one, when the use may not earn heat', () => {
    const m = memory({ updatedAt: daysAgo(HEAT_HALF_LIFE_DAYS) });
    expect(nextHeatOnUse(m, NOW, false)).toBeCloseTo(2, 12);
  });

  it('never lets heat pass the ceiling, however often a memory is used', () => {
    let m = memory({ heatBase: 0 });
    for (let i = 0; i < 1000; i++) {
      const now = NOW + i;
      m = { ...m, heatBase: nextHeatOnUse(m, now, true), lastAccessedAt: at(now) };
      expect(m.heatBase).toBeLessThanOrEqual(HEAT_MAX);
    }
    expect(m.heatBase).toBeGreaterThan(HEAT_MAX - 0.01);
  });

  it('rises by at most one increment per use and never falls below the decayed heat', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -5, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 365, noNaN: true }),
        fc.boolean(),
        (heatBase, age, mayEarnHeat) => {
          const m = memory({ heatBase, updatedAt: daysAgo(age) });
          const before = effectiveHeat(m, NOW);
          const after = nextHeatOnUse(m, NOW, mayEarnHeat);
          expect(after).toBeGreaterThanOrEqual(before);
          expect(after - before).toBeLessThanOrEqual(mayEarnHeat ? HEAT_USE_INCREMENT : 0);
          expect(after).toBeLessThanOrEqual(HEAT_MAX);
        },
      ),
    );
  });
});

describe('heatFactor', () => {
  it('is 1 for no heat and rises towards but below 1 + HEAT_BOOST_MAX', () => {
    expect(heatFactor(0)).toBe(1);
    expect(heatFactor(HEAT_MAX)).toBeLessThan(1 + HEAT_BOOST_MAX);
    expect(heatFactor(1e9)).toBe(heatFactor(HEAT_MAX));
    expect(heatFactor(-1)).toBe(1);
    expect(heatFactor(Number.NaN)).toBe(1);
  });

  it('caps the boost at the span a caller gives, within HEAT_BOOST_MAX', () => {
    expect(heatFactor(HEAT_MAX, 0.01)).toBeLessThan(1.01);
    expect(heatFactor(HEAT_MAX, 0.01)).toBeGreaterThan(1);
    expect(heatFactor(HEAT_MAX, 0)).toBe(1);
    expect(heatFactor(HEAT_MAX, 99)).toBe(heatFactor(HEAT_MAX));
    expect(heatFactor(HEAT_MAX, Number.NaN)).toBe(1);
  });

  it('does not fall as heat rises', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(heatFactor(hi)).toBeGreaterThanOrEqual(heatFactor(lo));
        },
      ),
    );
  });
});
