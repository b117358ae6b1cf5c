import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../errors.js';
import { fuseScores, normalise } from './score-fusion.js';

const hits = (...pairs: [string, number][]) => pairs.map(([id, score]) => ({ id, score }));

describe('normalise', () => {
  it('z-scores a leg over the pool, a missing candidate taking the lowest returned score', () => {
    const z = normalise(
      ['a', 'b', 'c', 'd'],
      new Map([
        ['a', 3],
        ['b', 2],
        ['c', 1],
      ]),
      'zscore',
    );
    // values 3, 2, 1, 1 → mean 1.75, deviation sqrt(0.6875)
    const sd = Math.sqrt(0.6875);
    expect(z[0]).toBeCloseTo(1.25 / sd, 12);
    expect(z[1]).toBeCloseTo(0.25 / sd, 12);
    expect(z[2]).toBeCloseTo(-0.75 / sd, 12);
    expect(z[3]).toBeCloseTo(-0.75 / sd, 12);
  });

  it('min-max scales to [0, 1]', () => {
    expect(
      normalise(
        ['a', 'b', 'c'],
        new Map([
          ['a', 10],
          ['b', 5],
        ]),
        'minmax',
      ),
    ).toEqual([1, 0, 0]);
  });

  it('falls back to presence when every returned candidate scored the same', () => {
    expect(normalise(['a', 'b'], new Map([['a', 7]]), 'minmax')).toEqual([1, 0]);
    const z = normalise(['a', 'b'], new Map([['a', 7]]), 'zscore');
    expect(z[0]).toBeCloseTo(1, 12);
    expect(z[1]).toBeCloseTo(-1, 12);
  });
});

describe('fuseScores', () => {
  it('sums weighted z-scores and priors, ranks by the sum and scores (k + 1) / (k + rank)', () => {
    const fused = fuseScores(
      [
        { signal: 'lexical', hits: hits(['a', 3], ['b', 2], ['c', 1]), weight: 1 },
        { signal: 'vector', hits: hits(['c', 0.9], ['b', 0.5], ['a', 0.1]), weight: 0.5 },
      ],
      {
        normalisation: 'zscore',
        k: 10,
        priors: [{ signal: 'entity', values: new Map([['c', 1]]), weight: 3 }],
      },
    );
    // lexical z: a +1.2247, b 0, c −1.2247; vector z (0.9, 0.5, 0.1): c +1.2247, b 0, a −1.2247.
    // a: 1.2247 − 0.6124 = 0.6124; b: 0; c: −1.2247 + 0.6124 + 3 = 2.3876.
    expect(fused.map((h) => h.id)).toEqual(['c', 'a', 'b']);
    expect(fused.map((h) => h.score)).toEqual([1, 11 / 12, 11 / 13]);
    expect(fused[0]!.contributions['entity']).toBe(3);
    expect(fused[1]!.contributions['lexical']).toBeCloseTo(1.2247449, 6);
    expect(fused[0]!.ranks).toEqual({ lexical: 3, vector: 1 });
  });

  it('clamps priors to [0, 1] so one prior adds at most its weight', () => {
    const fused = fuseScores([{ signal: 'lexical', hits: hits(['a', 2], ['b', 1]), weight: 1 }], {
      normalisation: 'minmax',
      k: 10,
      priors: [{ signal: 'session', values: new Map([['b', 50]]), weight: 0.3 }],
    });
    expect(fused.map((h) => h.id)).toEqual(['a', 'b']);
    expect(fused[1]!.contributions['session']).toBe(0.3);
  });

  it('gives equal totals one rank and breaks the order by best leg rank, then id', () => {
    const fused = fuseScores([{ signal: 'x', hits: hits(['b', 1], ['a', 1]), weight: 1 }], {
      normalisation: 'zscore',
      k: 10,
    });
    expect(fused.map((h) => [h.id, h.score])).toEqual([
      ['b', 1],
      ['a', 1],
    ]);
  });

  it('keeps the trust bound of RRF: an untrusted first place halved loses to a trusted 11th, ties the 12th', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const fused = fuseScores(
      [{ signal: 'lexical', hits: ids.map((id, i) => ({ id, score: 100 - i })), weight: 1 }],
      { normalisation: 'zscore', k: 10 },
    );
    expect(fused[0]!.score * 0.5).toBeLessThan(fused[10]!.score);
    expect(fused[0]!.score * 0.5).toBe(fused[11]!.score);
  });

  it('refuses a repeated signal, a negative weight and a bad k', () => {
    const leg = { signal: 'a', hits: hits(['x', 1]), weight: 1 };
    for (const call of [
      () => fuseScores([leg, leg], { normalisation: 'zscore', k: 10 }),
      () => fuseScores([{ ...leg, weight: -1 }], { normalisation: 'zscore', k: 10 }),
      () => fuseScores([leg], { normalisation: 'zscore', k: Number.NaN }),
    ]) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    }
  });
});
