import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { estimateTokens, packWithinBudget, truncateToTokens, TRUNCATION_MARKER } from './budget.js';

describe('estimateTokens', () => {
  it('charges a quarter token per ASCII character, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('charges one token per non-ASCII BMP character and two per astral one', () => {
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('é')).toBe(1);
    expect(estimateTokens('🙂')).toBe(2);
    expect(estimateTokens('ab日🙂')).toBe(1 + 1 + 2);
  });

  it('is monotone in the prefix and sub-additive', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(estimateTokens(a + b)).toBeGreaterThanOrEqual(estimateTokens(a));
        expect(estimateTokens(a + b)).toBeLessThanOrEqual(estimateTokens(a) + estimateTokens(b));
      }),
    );
  });
});

describe('packWithinBudget', () => {
  const identity = (n: number): number => n;

  it('never exceeds the budget, overhead included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 200 })),
        fc.nat({ max: 1000 }),
        fc.nat({ max: 100 }),
        (costs, budgetTokens, overhead) => {
          const packed = packWithinBudget(costs, { budgetTokens, overhead, cost: identity });
          const spent = packed.items.reduce((sum, cost) => sum + cost, 0);
          expect(packed.usedTokens).toBeLessThanOrEqual(budgetTokens);
          expect(packed.usedTokens).toBe(packed.items.length === 0 ? 0 : overhead + spent);
        },
      ),
    );
  });

  it('selects the most items possible when all cost the same', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 50 }),
        fc.integer({ min: 1, max: 40 }),
        fc.nat({ max: 1000 }),
        fc.nat({ max: 100 }),
        (count, unit, budgetTokens, overhead) => {
          const items = Array.from({ length: count }, () => unit);
          const packed = packWithinBudget(items, { budgetTokens, overhead, cost: identity });
          const room = Math.max(0, budgetTokens - overhead);
          expect(packed.items).toHaveLength(Math.min(count, Math.floor(room / unit)));
        },
      ),
    );
  });

  it('preserves priority order as a subsequence of the input', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 100 })), fc.nat({ max: 500 }), (costs, budgetTokens) => {
        const entries = costs.map((cost, index) => ({ cost, index }));
        const packed = packWithinBudget(entries, { budgetTokens, cost: (entry) => entry.cost });
        const indexes = packed.items.map((entry) => entry.index);
        expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
        expect(packed.omitted).toBe(costs.length - indexes.length);
      }),
    );
  });

  it('selects nothing for an empty, negative, NaN or overhead-sized budget', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10 })), (costs) => {
        for (const budgetTokens of [0, -5, Number.NaN]) {
          expect(packWithinBudget(costs, { budgetTokens, cost: identity }).items).toEqual([]);
        }
        expect(
          packWithinBudget(costs, { budgetTokens: 5, overhead: 6, cost: identity }).items,
        ).toEqual([]);
      }),
    );
  });

  it('skips an item that does not fit and takes a later one that does', () => {
    const packed = packWithinBudget([3, 50, 4], { budgetTokens: 10, cost: identity });
    expect(packed).toEqual({ items: [3, 4], usedTokens: 7, omitted: 1, truncated: false });
  });

  it('treats negative and non-finite costs as unaffordable', () => {
    const packed = packWithinBudget([-1, Number.NaN, Number.POSITIVE_INFINITY, 2], {
      budgetTokens: 10,
      cost: identity,
    });
    expect(packed.items).toEqual([2]);
  });

  it('cuts the first item that does not fit and stops there', () => {
    const packed = packWithinBudget([3, 50, 4], {
      budgetTokens: 10,
      cost: identity,
      truncate: (_item, max) => max,
    });
    expect(packed).toEqual({ items: [3, 7], usedTokens: 10, omitted: 1, truncated: true });
  });

  it('rejects a truncated copy that still costs too much', () => {
    const packed = packWithinBudget([3, 50, 4], {
      budgetTokens: 10,
      cost: identity,
      truncate: (item) => item - 1,
    });
    expect(packed).toEqual({ items: [3, 4], usedTokens: 7, omitted: 1, truncated: false });
  });
});

describe('truncateToTokens', () => {
  it('returns text that already fits unchanged', () => {
    expect(truncateToTokens('short', 10)).toBe('short');
  });

  it('cuts to the budget and appends the truncation marker', () => {
    const cut = truncateToTokens('a'.repeat(400), 20);
    // ceil((65 + 11) / 4) ASCII tokens plus one for the ellipsis = 20.
    expect(cut).toBe(`${'a'.repeat(65)}${TRUNCATION_MARKER}`);
    expect(estimateTokens(cut!)).toBeLessThanOrEqual(20);
  });

  it('returns undefined when not even the marker fits', () => {
    expect(truncateToTokens('a'.repeat(400), 1)).toBeUndefined();
  });

  it('never exceeds the budget nor splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat({ max: 60 }), (text, max) => {
        const cut = truncateToTokens(text, max);
        if (cut === undefined) return;
        expect(estimateTokens(cut)).toBeLessThanOrEqual(max);
        expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
      }),
    );
  });
});
