import { describe, expect, it } from 'vitest';

import { chooseTiers, type ScoredQuery, tierOutcomes } from '../../bench/calibrate/tiers.js';

const EVIDENCE = { coverage: 0, lead: 0, rank: 1, bestCoverage: 0 };

function query(id: string, negative: boolean, hits: [number, boolean][]): ScoredQuery {
  return {
    id,
    path: 'lexical',
    split: 'tune',
    negative,
    hits: hits.map(([p, needed]) => ({ evidence: EVIDENCE, needed, p })),
  };
}

describe('tierOutcomes', () => {
  it('counts a question once: in full, else as an index line, else wrong only or silent', () => {
    const queries = [
      query('full', false, [[0.9, true]]),
      query('index', false, [
        [0.9, false],
        [0.4, true],
      ]),
      query('wrong', false, [[0.4, false]]),
      query('silent', false, [[0.1, true]]),
      query('noise', true, [[0.4, false]]),
      query('quiet', true, [[0.1, false]]),
    ];
    expect(tierOutcomes(queries, { full: 0.8, index: 0.3 })).toMatchObject({
      questions: 4,
      full: 0.25,
      index: 0.25,
      needed: 0.5,
      wrongOnly: 0.25,
      silent: 0.25,
      negatives: 2,
      negativeAny: 0.5,
      fullPrecision: 0.5,
    });
  });
});

describe('chooseTiers', () => {
  it('takes the lowest index threshold that keeps negatives quiet, and a full one that is mostly right', () => {
    const queries = [
      ...Array.from({ length: 20 }, (_, i) => query(`n${i}`, true, [[0.3, false]])),
      query('q1', false, [[0.6, true]]),
      query('q2', false, [
        [0.45, true],
        [0.45, false],
      ]),
    ];
    const tiers = chooseTiers(queries);
    expect(tiers.index).toBeCloseTo(0.325, 9);
    expect(tierOutcomes(queries, tiers).negativeAny).toBe(0);
    expect(tiers.full).toBeGreaterThanOrEqual(tiers.index);
    expect(tierOutcomes(queries, tiers).fullPrecision).toBeGreaterThanOrEqual(0.5);
  });
});
