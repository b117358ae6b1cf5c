import { describe, expect, it } from 'vitest';

import { LOCOMO_CATEGORIES } from '../../bench/retrieval/locomo.js';
import {
  breakdown,
  firstHitRank,
  type Outcome,
  percentile,
  summarise,
} from '../../bench/retrieval/metrics.js';

const sessionOf = (turn: string): string | undefined => /^(D\d+):/.exec(turn)?.[1];

describe('firstHitRank', () => {
  it('counts a strict hit only on an evidence turn', () => {
    const retrieved = [['D1:1'], ['D2:2'], ['D2:3']];
    expect(firstHitRank('strict', retrieved, ['D2:3'], sessionOf)).toBe(3);
    expect(firstHitRank('strict', retrieved, ['D2:9'], sessionOf)).toBeNull();
  });

  it('counts a session hit on any turn from an evidence session', () => {
    const retrieved = [['D1:1'], ['D2:2'], ['D2:3']];
    expect(firstHitRank('session', retrieved, ['D2:9'], sessionOf)).toBe(2);
    expect(firstHitRank('session', retrieved, ['D3:1'], sessionOf)).toBeNull();
  });

  it('credits a memory that stands for several turns when any of them is evidence', () => {
    expect(firstHitRank('strict', [['D1:1'], ['D1:4', 'D1:7']], ['D1:7'], sessionOf)).toBe(2);
  });

  it('ignores results deeper than 10', () => {
    const retrieved = Array.from({ length: 12 }, (_, i) => [`D1:${i + 1}`]);
    expect(firstHitRank('strict', retrieved, ['D1:10'], sessionOf)).toBe(10);
    expect(firstHitRank('strict', retrieved, ['D1:11'], sessionOf)).toBeNull();
  });
});

describe('summarise', () => {
  it('computes R@k as the share of questions with a hit in the top k, and MRR@10', () => {
    // ranks 1, 3, 7, none: R@1 1/4, R@5 2/4, R@10 3/4, MRR (1 + 1/3 + 1/7) / 4.
    const m = summarise([1, 3, 7, null]);
    expect(m).toMatchObject({ n: 4, r1: 0.25, r5: 0.5, r10: 0.75 });
    expect(m.mrr10).toBeCloseTo((1 + 1 / 3 + 1 / 7) / 4, 12);
  });

  it('gives zeros for no questions', () => {
    expect(summarise([])).toEqual({ n: 0, r1: 0, r5: 0, r10: 0, mrr10: 0 });
  });
});

describe('breakdown', () => {
  it('reports overall, overall without adversarial, each category, tune and held-out sets', () => {
    const outcomes: Outcome[] = [
      { conversation: 0, category: '1', rank: 1 },
      { conversation: 1, category: '4', rank: 2 },
      { conversation: 2, category: '5', rank: null },
      { conversation: 3, category: '2', rank: null },
    ];
    const rows = breakdown(outcomes, LOCOMO_CATEGORIES, 2, 4);
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r.metrics]));
    expect(rows.map((r) => r.label)).toEqual([
      'overall',
      'overall excl. adversarial',
      'cat 1 multi-hop',
      'cat 2 temporal',
      'cat 3 open-domain',
      'cat 4 single-hop',
      'cat 5 adversarial',
      'tune (conv 0-1)',
      'held-out (conv 2-3)',
    ]);
    expect(byLabel['overall']).toMatchObject({ n: 4, r10: 0.5, mrr10: 0.375 });
    expect(byLabel['overall excl. adversarial']).toMatchObject({ n: 3, r10: 2 / 3 });
    expect(byLabel['cat 3 open-domain']?.n).toBe(0);
    expect(byLabel['tune (conv 0-1)']).toMatchObject({ n: 2, r1: 0.5, mrr10: 0.75 });
    expect(byLabel['held-out (conv 2-3)']).toMatchObject({ n: 2, r10: 0 });
  });
});

describe('percentile', () => {
  it('picks by nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 95)).toBe(95);
    expect(percentile([], 50)).toBeNaN();
  });
});
