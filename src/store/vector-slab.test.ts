import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { cosineDistance, deterministicVectors } from './contract/fixtures.js';
import { VectorSlab } from './vector-slab.js';

/** The exact answer: every row's cosine distance, sorted by distance then seq. */
function bruteForce(rows: Map<number, Float32Array>, query: Float32Array, k: number) {
  return [...rows]
    .map(([seq, values]) => ({ seq, distance: cosineDistance(query, values) }))
    .sort((a, b) => a.distance - b.distance || a.seq - b.seq)
    .slice(0, k);
}

describe('VectorSlab', () => {
  it('returns the exact k nearest by cosine, nearest first, with their distances', () => {
    const vectors = deterministicVectors(500, 24, 3);
    const slab = new VectorSlab(24);
    const rows = new Map<number, Float32Array>();
    vectors.forEach((values, i) => {
      slab.put(i * 3 + 1, values);
      rows.set(i * 3 + 1, values);
    });
    for (const query of deterministicVectors(20, 24, 11)) {
      for (const k of [1, 7, 64, 600]) {
        const hits = slab.nearest(query, k);
        const expected = bruteForce(rows, query, k);
        expect(hits.map((h) => h.seq)).toEqual(expected.map((h) => h.seq));
        hits.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i]!.distance, 6));
      }
    }
  });

  it('orders equal distances by the lower seq and keeps that order at the k boundary', () => {
    const slab = new VectorSlab(2);
    for (const seq of [9, 4, 7, 2]) slab.put(seq, [1, 1]);
    slab.put(5, [1, 0]);
    expect(slab.nearest([1, 1], 3).map((h) => h.seq)).toEqual([2, 4, 7]);
    expect(slab.nearest([1, 1], 10).map((h) => h.seq)).toEqual([2, 4, 7, 9, 5]);
  });

  it('replaces a row in place, forgets deleted rows and reuses their slots', () => {
    const slab = new VectorSlab(2, 1);
    for (let seq = 1; seq <= 100; seq++) slab.put(seq, [seq, 1]);
    const bytes = slab.bytes;
    for (let seq = 1; seq <= 50; seq++) expect(slab.delete(seq)).toBe(true);
    expect(slab.delete(1)).toBe(false);
    for (let seq = 101; seq <= 150; seq++) slab.put(seq, [1, seq]);
    expect(slab.size).toBe(100);
    expect(slab.bytes).toBe(bytes); // the 50 freed slots took the 50 new rows
    slab.put(150, [1, 0]);
    expect(slab.size).toBe(100);
    expect(slab.nearest([0, 1], 1)[0]!.seq).toBe(149);
    expect(slab.nearest([1, 0], 1)[0]!.seq).toBe(150);
    expect(slab.has(10)).toBe(false);
    expect(slab.nearest([-1, 0], 200).map((h) => h.seq)).not.toContain(10);
  });

  it('answers nothing for a zero query or k = 0, and refuses a vector of the wrong dimension', () => {
    const slab = new VectorSlab(3);
    slab.put(1, [1, 2, 3]);
    expect(slab.nearest([0, 0, 0], 5)).toEqual([]);
    expect(slab.nearest([1, 0, 0], 0)).toEqual([]);
    expect(() => slab.put(2, [1, 2])).toThrow(RangeError);
    expect(() => slab.nearest([1, 2], 1)).toThrow(RangeError);
  });

  it('agrees with a brute-force scan after any sequence of puts and deletes (property)', () => {
    const op = fc.oneof(
      fc.record({
        put: fc.integer({ min: 1, max: 40 }),
        values: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
          minLength: 5,
          maxLength: 5,
        }),
      }),
      fc.record({ del: fc.integer({ min: 1, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 1, max: 50 }), (ops, k) => {
        const slab = new VectorSlab(5, 1);
        const rows = new Map<number, Float32Array>();
        for (const o of ops) {
          if ('del' in o) {
            expect(slab.delete(o.del)).toBe(rows.delete(o.del));
          } else if (o.values.some((v) => v !== 0)) {
            slab.put(o.put, o.values);
            rows.set(o.put, Float32Array.from(o.values));
          }
        }
        const query = Float32Array.from([0.3, -0.2, 0.9, 0.1, -0.5]);
        const hits = slab.nearest(query, k);
        const expected = bruteForce(rows, query, k);
        expect(slab.size).toBe(rows.size);
        expect(hits.length).toBe(expected.length);
        // Equal distances up to rounding may order either way; the distances themselves must agree.
        hits.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i]!.distance, 5));
      }),
      { numRuns: 300 },
    );
  });
});
