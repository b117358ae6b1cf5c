import { describe, expect, it } from 'vitest';

import { bm25fScore, countTerms, idf, type LexicalStats, RECALL_BM25F } from './bm25f.js';

const stats = (
  docs: number,
  df: Record<string, number>,
  body = docs * 10,
  context = docs * 20,
): LexicalStats => ({
  docs,
  fieldTerms: { body, context },
  docFrequency: new Map(Object.entries(df)),
});

describe('bm25fScore', () => {
  it('computes BM25 by hand for a body-only document', () => {
    const params = { k1: 1.2, b: 0.75, weights: { body: 1, context: 0 } };
    const doc = countTerms({ body: ['cache', 'cache', 'redis', 'ttl'], context: [] });
    const s = stats(100, { cache: 10, redis: 5 }, 1000, 0);
    // avgdl = 10, dl = 4 → norm = 1.2 × (0.25 + 0.75 × 0.4) = 0.66
    const expected = (idf(100, 10) * 2 * 2.2) / (2 + 0.66) + (idf(100, 5) * 1 * 2.2) / (1 + 0.66);
    expect(bm25fScore(['cache', 'redis', 'absent'], doc, s, params)).toBeCloseTo(expected, 12);
  });

  it('counts a term in the context at the context weight, below the same term in the body', () => {
    const s = stats(50, { deploy: 5 });
    const inBody = countTerms({ body: ['deploy', 'x'], context: [['y', 'z']] });
    const inContext = countTerms({ body: ['x', 'y'], context: [['deploy', 'z']] });
    const inBodyScore = bm25fScore(['deploy'], inBody, s, RECALL_BM25F);
    const inContextScore = bm25fScore(['deploy'], inContext, s, RECALL_BM25F);
    expect(inContextScore).toBeGreaterThan(0);
    expect(inContextScore).toBeLessThan(inBodyScore);
    const { k1, b } = RECALL_BM25F;
    const noContext = { k1, b, weights: { body: 1, context: 0 } };
    expect(bm25fScore(['deploy'], inContext, s, { ...noContext, contextLines: [0] })).toBe(0);
    expect(bm25fScore(['deploy'], inContext, s, noContext)).toBe(0);
  });

  it('scales the context of a body longer than contextReference by reference / length, never a short one', () => {
    const s = stats(50, { deploy: 5 });
    const params = { k1: 1.2, b: 0, weights: { body: 1, context: 0.5 }, contextReference: 4 };
    const short = countTerms({ body: ['a', 'b'], context: [['deploy']] });
    const long = countTerms({
      body: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      context: [['deploy']],
    });
    const { contextReference: _, ...unscaled } = params;
    expect(bm25fScore(['deploy'], short, s, params)).toBe(
      bm25fScore(['deploy'], short, s, unscaled),
    );
    // b = 0: the length does not count, so the score is that of tf 0.5 × 4 / 8 = 0.25.
    const tf = 0.25;
    expect(bm25fScore(['deploy'], long, s, params)).toBeCloseTo(
      (idf(50, 5) * tf * 2.2) / (tf + 1.2),
      12,
    );
    expect(RECALL_BM25F.contextReference).toBe(80);
  });

  it('weighs each context line by its neighbour position, and counts the lines in the length', () => {
    const s = stats(50, { deploy: 5 }, 500, 1000);
    const params = {
      k1: 1.2,
      b: 0.5,
      weights: { body: 1, context: 0.5 },
      contextLines: [0.5, 0.3],
    };
    const first = countTerms({ body: ['x'], context: [['deploy'], ['y']] });
    const second = countTerms({ body: ['x'], context: [['y'], ['deploy']] });
    // avgdl = (500 + 0.4 × 1000) / 50 = 18; dl = 1 + 0.5 + 0.3 = 1.8 → norm = 1.2 × (0.5 + 0.5 × 0.1)
    const norm = 1.2 * (0.5 + (0.5 * 1.8) / 18);
    const expected = (w: number) => (idf(50, 5) * w * 2.2) / (w + norm);
    expect(bm25fScore(['deploy'], first, s, params)).toBeCloseTo(expected(0.5), 12);
    expect(bm25fScore(['deploy'], second, s, params)).toBeCloseTo(expected(0.3), 12);
    // A line beyond the list weighs the context's field weight.
    const third = countTerms({ body: ['x'], context: [[], [], ['deploy']] });
    expect(bm25fScore(['deploy'], third, s, params)).toBeGreaterThan(
      bm25fScore(['deploy'], second, s, params),
    );
  });

  it('saturates term frequency with k1 and penalises length with b', () => {
    const s = stats(100, { a: 10 });
    const once = countTerms({ body: ['a'], context: [] });
    const many = countTerms({ body: Array(20).fill('a') as string[], context: [] });
    const params = { k1: 0.9, b: 0, weights: { body: 1, context: 0 } };
    expect(bm25fScore(['a'], many, s, params)).toBeLessThan(idf(100, 10) * 1.9);
    const long = countTerms({ body: ['a', ...(Array(50).fill('q') as string[])], context: [] });
    const withB = { ...params, b: 0.75 };
    expect(bm25fScore(['a'], long, s, withB)).toBeLessThan(bm25fScore(['a'], once, s, withB));
    expect(bm25fScore(['a'], long, s, params)).toBeCloseTo(bm25fScore(['a'], once, s, params), 12);
  });

  it('scores 0 for an empty collection or bad parameters instead of NaN', () => {
    const doc = countTerms({ body: ['a'], context: [] });
    expect(bm25fScore(['a'], doc, stats(0, {}), RECALL_BM25F)).toBe(0);
    expect(bm25fScore(['a'], doc, stats(5, { a: 1 }), { ...RECALL_BM25F, k1: Number.NaN })).toBe(0);
    expect(bm25fScore(['a'], doc, stats(5, { a: 1 }), { ...RECALL_BM25F, b: 2 })).toBe(0);
  });

  it('never gives a negative idf, even for a term in every document', () => {
    expect(idf(10, 10)).toBeGreaterThan(0);
    expect(idf(10, 50)).toBeGreaterThan(0);
  });
});
