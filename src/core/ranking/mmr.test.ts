import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type MmrCandidate, mmrRerank } from './mmr.js';

const candidate = (id: string, score: number, vector: number[] | null): MmrCandidate => ({
  id,
  score,
  vector,
});

const candidates = fc
  .uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
      vector: fc.option(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
      ),
    }),
    { selector: (c) => c.id, maxLength: 15 },
  )
  .map((cs) => cs.map((c): MmrCandidate => ({ ...c, vector: c.vector })));

describe('mmrRerank', () => {
  it('returns at most limit candidates, each once, all from the input', () => {
    fc.assert(
      fc.property(
        candidates,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 20 }),
        (cs, lambda, limit) => {
          const out = mmrRerank(cs, { lambda, limit });
          expect(out).toHaveLength(Math.min(limit, cs.length));
          expect(new Set(out).size).toBe(out.length);
          for (const c of out) expect(cs).toContain(c);
        },
      ),
    );
  });

  it('takes the most relevant candidate first whenever relevance counts at all', () => {
    fc.assert(
      fc.property(
        candidates.filter((cs) => cs.length > 0),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (cs, lambda) => {
          const best = Math.max(...cs.map((c) => c.score));
          expect(mmrRerank(cs, { lambda })[0]?.score).toBe(best);
        },
      ),
    );
  });

  it('keeps relevance order, ties in input order, when lambda is 1', () => {
    fc.assert(
      fc.property(candidates, (cs) => {
        const expected = cs
          .map((c, i) => ({ c, i }))
          .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
          .map(({ c }) => c);
        expect(mmrRerank(cs, { lambda: 1 })).toEqual(expected);
      }),
    );
  });

  it('moves a near-duplicate below a distinct, slightly less relevant candidate', () => {
    const cs = [
      candidate('fact', 1.0, [1, 0, 0]),
      candidate('reworded fact', 0.95, [0.99, 0.1, 0]),
      candidate('other fact', 0.9, [0, 1, 0]),
      candidate('weak', 0.0, [0, 0, 1]),
    ];
    expect(mmrRerank(cs, { lambda: 1 }).map((c) => c.id)).toEqual([
      'fact',
      'reworded fact',
      'other fact',
      'weak',
    ]);
    expect(mmrRerank(cs).map((c) => c.id)).toEqual(['fact', 'other fact', 'reworded fact', 'weak']);
  });

  it('does not penalise a candidate whose redundancy cannot be measured', () => {
    const cs = [
      candidate('a', 1.0, [1, 0]),
      candidate('a twin', 0.9, [1, 0]),
      candidate('no vector', 0.8, null),
    ];
    expect(mmrRerank(cs, { lambda: 0.5 }).map((c) => c.id)).toEqual(['a', 'no vector', 'a twin']);
  });

  it('judges relevance on the same footing for tiny RRF scores as for unit scores', () => {
    const unit = [
      candidate('x', 1, [1, 0]),
      candidate('y', 0.6, [1, 0.05]),
      candidate('z', 0.3, [0, 1]),
    ];
    const rrf = unit.map((c) => ({ ...c, score: 0.01 + c.score / 100 }));
    expect(mmrRerank(rrf).map((c) => c.id)).toEqual(mmrRerank(unit).map((c) => c.id));
  });

  it('returns nothing for no candidates', () => {
    expect(mmrRerank([])).toEqual([]);
  });

  it('rejects lambda outside [0, 1] and a negative limit', () => {
    const cs = [candidate('a', 1, null)];
    for (const options of [
      { lambda: -0.1 },
      { lambda: 1.5 },
      { lambda: Number.NaN },
      { limit: -1 },
    ]) {
      expect(() => mmrRerank(cs, options)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });
});
