import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { cosineSimilarity, l2Normalize } from './cosine.js';

// Components are 0 or at least 1e-6 in size: squares of values below ~1e-154 underflow to 0, and such a
// vector reads as the zero vector, which no embedder produces.
const component = fc
  .double({ min: -1000, max: 1000, noNaN: true })
  .map((x) => (Math.abs(x) < 1e-6 ? 0 : x));
const vector = (length: number) => fc.array(component, { minLength: length, maxLength: length });
const pairOfVectors = fc.integer({ min: 1, max: 16 }).chain((n) => fc.tuple(vector(n), vector(n)));

describe('cosineSimilarity', () => {
  it('is 1 for the same direction, -1 for opposite and 0 for orthogonal vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 2, 3], [-1, -2, -3])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
  });

  it('stays within [-1, 1] and is symmetric', () => {
    fc.assert(
      fc.property(pairOfVectors, ([a, b]) => {
        const s = cosineSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(-1);
        expect(s).toBeLessThanOrEqual(1);
        expect(cosineSimilarity(b, a)).toBe(s);
      }),
    );
  });

  it('does not depend on vector length', () => {
    fc.assert(
      fc.property(pairOfVectors, fc.double({ min: 0.01, max: 100, noNaN: true }), ([a, b], c) => {
        const scaled = a.map((x) => x * c);
        expect(cosineSimilarity(scaled, b)).toBeCloseTo(cosineSimilarity(a, b), 9);
      }),
    );
  });

  it('treats a zero vector as similar to nothing', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity(new Float32Array(3), new Float32Array(3))).toBe(0);
  });

  it('refuses vectors of different dimensions', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(RangeError);
  });
});

describe('l2Normalize', () => {
  it('returns a unit vector in the same direction', () => {
    fc.assert(
      fc.property(
        vector(8).filter((v) => v.some((x) => Math.abs(x) > 1e-3)),
        (v) => {
          const unit = l2Normalize(v);
          expect(Math.hypot(...unit)).toBeCloseTo(1, 5);
          expect(cosineSimilarity(unit, v)).toBeCloseTo(1, 5);
        },
      ),
    );
  });

  it('keeps a zero vector zero instead of producing NaN', () => {
    expect([...l2Normalize([0, 0, 0])]).toEqual([0, 0, 0]);
  });
});
