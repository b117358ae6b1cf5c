/**
 * Score fusion on the pools small stores give: 2–20 candidates, a lexical leg that returns a few of
 * them, dense legs that score all of them (issue: the second of two lexical matches ranked below
 * memories that shared no query word on a 33-memory store).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { LEG_SMALL_POOL } from './recall-fusion.js';
import { fuseScores, normalise, type ScoredList } from './score-fusion.js';

interface PoolCase {
  /** Lexical BM25 per candidate; 0 = not returned (shares no query word). */
  lexical: number[];
  vector: number[];
}

const poolCase = fc.integer({ min: 2, max: 20 }).chain((n) =>
  fc.record({
    lexical: fc.array(
      // Scores on a grid: a difference below float precision (5e-324) is no difference to rank by.
      fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 200 }).map((v) => v / 10),
      ),
      { minLength: n, maxLength: n },
    ),
    vector: fc.array(
      fc.integer({ min: -1000, max: 1000 }).map((v) => v / 1000),
      { minLength: n, maxLength: n },
    ),
  }),
);

function lists({ lexical, vector }: PoolCase): ScoredList[] {
  const ids = vector.map((_, i) => `m${String(i).padStart(2, '0')}`);
  const lexicalHits = ids
    .map((id, i) => ({ id, score: lexical[i]! }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score);
  const vectorHits = ids
    .map((id, i) => ({ id, score: vector[i]! }))
    .sort((a, b) => b.score - a.score);
  return [
    { signal: 'lexical', hits: lexicalHits, weight: 1, scale: LEG_SMALL_POOL.lexical },
    { signal: 'vector', hits: vectorHits, weight: 0.5, scale: LEG_SMALL_POOL.vector },
  ];
}

function rankOf(fused: ReturnType<typeof fuseScores>): Map<string, number> {
  const rank = new Map<string, number>();
  fused.forEach((hit, i) => rank.set(hit.id, i));
  return rank;
}

describe('score fusion on small pools', () => {
  it('never ranks a memory below one it matches or beats on every leg (2–20 candidates, 2,000 stores)', () => {
    fc.assert(
      fc.property(poolCase, (pool) => {
        const fused = fuseScores(lists(pool), { normalisation: 'zscore', k: 10 });
        const rank = rankOf(fused);
        const n = pool.vector.length;
        for (let a = 0; a < n; a += 1) {
          for (let b = 0; b < n; b += 1) {
            const la = pool.lexical[a]!;
            const lb = pool.lexical[b]!;
            const va = pool.vector[a]!;
            const vb = pool.vector[b]!;
            const dominates = la >= lb && va >= vb && (la > lb || va > vb);
            if (!dominates) continue;
            const idA = `m${String(a).padStart(2, '0')}`;
            const idB = `m${String(b).padStart(2, '0')}`;
            if (!(rank.get(idA)! < rank.get(idB)!)) return false;
          }
        }
        return true;
      }),
      { numRuns: 2_000, seed: 22 },
    );
  });

  it('keeps the second lexical match above memories that share no query word', () => {
    // The README's store: 30 candidates, two lexical matches, a vector leg that prefers non-matches.
    const ids = Array.from({ length: 30 }, (_, i) => `m${i}`);
    const vector = ids.map((id, i) => ({ id, score: 0.4 - i * 0.01 }));
    const second = 'm20';
    const fused = fuseScores(
      [
        {
          signal: 'lexical',
          hits: [
            { id: 'm25', score: 8 },
            { id: second, score: 3 },
          ],
          weight: 1,
          scale: LEG_SMALL_POOL.lexical,
        },
        { signal: 'vector', hits: vector, weight: 0.5, scale: LEG_SMALL_POOL.vector },
      ],
      { normalisation: 'zscore', k: 10 },
    );
    expect(fused.slice(0, 2).map((hit) => hit.id)).toEqual(['m25', second]);
    expect(fused.find((hit) => hit.id === second)!.contributions.lexical).toBeGreaterThan(0);
  });

  it('does not stretch near-equal scores of a tiny pool to whole units', () => {
    const pool = new Map([
      ['a', 0.501],
      ['b', 0.5],
    ]);
    const [a, b] = normalise(['a', 'b'], pool, 'zscore', LEG_SMALL_POOL.vector);
    expect(a! - b!).toBeCloseTo(0.001 / 0.05, 9);
    const [ma, mb] = normalise(['a', 'b'], pool, 'minmax', LEG_SMALL_POOL.vector);
    expect(ma! - mb!).toBeCloseTo(0.001 / 0.05, 9);
    // A clear lexical lead is then not undone by a vector difference of a thousandth.
    const fused = fuseScores(
      [
        {
          signal: 'lexical',
          hits: [
            { id: 'b', score: 6 },
            { id: 'a', score: 4 },
          ],
          weight: 1,
          scale: LEG_SMALL_POOL.lexical,
        },
        {
          signal: 'vector',
          hits: [
            { id: 'a', score: 0.501 },
            { id: 'b', score: 0.5 },
          ],
          weight: 1,
          scale: LEG_SMALL_POOL.vector,
        },
      ],
      { normalisation: 'zscore', k: 10 },
    );
    expect(fused[0]!.id).toBe('b');
  });

  it('scores a candidate the lexical leg did not return as a non-match, not as its weakest match', () => {
    const returned = new Map([
      ['a', 5],
      ['b', 2],
    ]);
    const ids = ['a', 'b', 'c'];
    const [, weakest, absent] = normalise(ids, returned, 'minmax', LEG_SMALL_POOL.lexical);
    expect(weakest).toBeCloseTo(0.4, 12);
    expect(absent).toBe(0);
    // Without a scale the leg cannot tell them apart (the floor stands in for the absent candidate).
    const [, weakFloor, absentFloor] = normalise(ids, returned, 'minmax');
    expect(weakFloor).toBe(absentFloor);
    // A single lexical match still stands out against non-matches.
    const [only, none] = normalise(
      ['a', 'b'],
      new Map([['a', 7]]),
      'zscore',
      LEG_SMALL_POOL.lexical,
    );
    expect(only).toBeGreaterThan(none!);
  });
});
