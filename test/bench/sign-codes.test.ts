import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  adcScore,
  adcTables,
  recallAt,
  rescoreExactly,
  signBits,
  SignCodeIndex,
  topIndices,
} from '../../bench/retrieval/sign-codes.js';
import { cosineSimilarity } from '../../src/core/ranking/cosine.js';

const vectorArb = (dims: number) =>
  fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims });

describe('signBits', () => {
  it('sets bit i (least significant first) where component i is positive, padding to a byte', () => {
    // dims 0, 3 and 9 positive; zero, negative and NaN give 0.
    const code = signBits([0.5, -1, 0, 2, Number.NaN, -0.1, 0, -3, 0, 1e-9]);
    expect(Array.from(code)).toEqual([0b0000_1001, 0b0000_0010]);
  });

  it('gives 32 bytes for 256 dimensions and 13 for 100', () => {
    expect(signBits(new Float32Array(256).fill(1))).toEqual(new Uint8Array(32).fill(255));
    expect(signBits(new Float32Array(100).fill(1)).length).toBe(13);
    expect(signBits(new Float32Array(100).fill(1))[12]).toBe(0b0000_1111);
  });
});

describe('asymmetric scoring of a code', () => {
  it('equals Σ qᵢ·(+1 where bit i is set, −1 where not) for any query and vector', () => {
    fc.assert(
      fc.property(vectorArb(20), vectorArb(20), (query, vector) => {
        const code = signBits(vector);
        const direct = query.reduce((sum, q, i) => sum + (vector[i]! > 0 ? q : -q), 0);
        expect(adcScore(adcTables(query), code, 0, code.length)).toBeCloseTo(direct, 4);
      }),
    );
  });
});

describe('topIndices', () => {
  it('returns the k highest scores best first, ties broken by the lower index', () => {
    const scores = Float32Array.from([0.1, 0.9, 0.5, 0.9, -1, 0.5]);
    expect(topIndices(scores, 4)).toEqual([1, 3, 2, 5]);
    expect(topIndices(scores, 0)).toEqual([]);
    expect(topIndices(scores, 10)).toEqual([1, 3, 2, 5, 0, 4]);
  });

  it('agrees with a full sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 200 }),
        fc.nat(50),
        (values, k) => {
          const scores = Float32Array.from(values);
          const sorted = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b);
          expect(topIndices(scores, k)).toEqual(sorted.slice(0, k));
        },
      ),
    );
  });
});

describe('re-scoring', () => {
  it('returns, for what it re-scores, exactly the order of exact cosine', () => {
    fc.assert(
      fc.property(
        fc.array(vectorArb(16), { minLength: 1, maxLength: 60 }),
        vectorArb(16),
        fc.nat(40),
        (stored, query, rescore) => {
          const vectors = new Map(stored.map((v, i) => [`m${String(i).padStart(3, '0')}`, v]));
          const candidates = new SignCodeIndex(vectors, 16).candidates(query, rescore);
          expect(candidates).toHaveLength(Math.min(rescore, stored.length));
          const exact = candidates
            .map((id) => ({ id, score: cosineSimilarity(query, vectors.get(id)!) }))
            .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
            .slice(0, 10);
          expect(rescoreExactly(query, candidates, vectors, 10)).toEqual(exact);
        },
      ),
    );
  });

  it('is the exact top k of the whole space when it re-scores every vector', () => {
    const vectors = new Map(
      Array.from({ length: 50 }, (_, i) => [
        `m${i}`,
        Float32Array.from({ length: 8 }, (_, d) => Math.sin(i * 7 + d * 3)),
      ]),
    );
    const query = Float32Array.from({ length: 8 }, (_, d) => Math.cos(d));
    const all = [...vectors.keys()];
    const exact = all
      .map((id) => ({ id, score: cosineSimilarity(query, vectors.get(id)!) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    const index = new SignCodeIndex(vectors, 8);
    expect(rescoreExactly(query, index.candidates(query, 50), vectors, 5)).toEqual(exact);
  });

  it('keeps out a candidate the store returned no vector for', () => {
    const vectors = new Map([['a', [1, 0]]]);
    expect(rescoreExactly([1, 0], ['a', 'gone'], vectors, 5)).toEqual([{ id: 'a', score: 1 }]);
  });
});

describe('recallAt', () => {
  it('is the share of the exact top k the approximate top k found', () => {
    expect(recallAt(3, ['a', 'x', 'c', 'b'], ['a', 'b', 'c'])).toBeCloseTo(2 / 3);
    expect(recallAt(2, ['b', 'a'], ['a', 'b', 'c'])).toBe(1);
    expect(recallAt(10, [], [])).toBe(1);
  });
});
