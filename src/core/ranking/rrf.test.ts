import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../errors.js';
import { fuseRankings, type RankedList, RRF_K } from './rrf.js';

const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l');
const rankedList: fc.Arbitrary<RankedList> = fc.record(
  {
    signal: fc.string({ minLength: 1, maxLength: 8 }),
    ids: fc.array(id, { maxLength: 12 }),
    weight: fc.double({ min: 0, max: 5, noNaN: true }),
  },
  { requiredKeys: ['signal', 'ids'] },
);
const rankedLists = fc.uniqueArray(rankedList, { selector: (l) => l.signal, maxLength: 5 });
const listsAndPermutation = rankedLists.chain((lists) =>
  fc.tuple(
    fc.constant(lists),
    fc.shuffledSubarray(lists, { minLength: lists.length, maxLength: lists.length }),
  ),
);

describe('fuseRankings', () => {
  it('gives the same result whatever the order of the input lists', () => {
    fc.assert(
      fc.property(listsAndPermutation, fc.integer({ min: 0, max: 100 }), ([lists, shuffled], k) => {
        expect(fuseRankings(shuffled, { k })).toEqual(fuseRankings(lists, { k }));
      }),
    );
  });

  it('returns each id once and exactly the union of the input ids', () => {
    fc.assert(
      fc.property(rankedLists, (lists) => {
        const fused = fuseRankings(lists).map((h) => h.id);
        expect(new Set(fused).size).toBe(fused.length);
        expect(new Set(fused)).toEqual(new Set(lists.flatMap((l) => l.ids)));
      }),
    );
  });

  it('puts an item ranked first in every list first', () => {
    fc.assert(
      fc.property(
        rankedLists.filter((lists) => lists.length > 0),
        fc.integer({ min: 0, max: 100 }),
        (lists, k) => {
          const withTop = lists.map((l) => ({ ...l, ids: ['top', ...l.ids] }));
          expect(fuseRankings(withTop, { k })[0]?.id).toBe('top');
        },
      ),
    );
  });

  it('keeps each leg rank and contribution so the score can be explained', () => {
    fc.assert(
      fc.property(rankedLists, fc.integer({ min: 0, max: 100 }), (lists, k) => {
        for (const hit of fuseRankings(lists, { k })) {
          let sum = 0;
          for (const list of lists) {
            const index = list.ids.indexOf(hit.id);
            if (index === -1) {
              expect(Object.hasOwn(hit.ranks, list.signal)).toBe(false);
              expect(hit.ranks[list.signal]).toBeUndefined();
              continue;
            }
            const rank = new Set(list.ids.slice(0, index + 1)).size;
            expect(hit.ranks[list.signal]).toBe(rank);
            expect(hit.contributions[list.signal]).toBeCloseTo((list.weight ?? 1) / (k + rank), 12);
            sum += hit.contributions[list.signal]!;
          }
          expect(hit.score).toBeCloseTo(sum, 12);
        }
      }),
    );
  });

  it('sorts by descending score', () => {
    fc.assert(
      fc.property(rankedLists, (lists) => {
        const scores = fuseRankings(lists).map((h) => h.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }),
    );
  });

  it('scores first place in one unweighted list as 1 / (k + 1)', () => {
    const [hit] = fuseRankings([{ signal: 'lexical', ids: ['x'] }]);
    expect(RRF_K).toBe(60);
    expect(hit).toEqual({
      id: 'x',
      score: 1 / 61,
      ranks: { lexical: 1 },
      contributions: { lexical: 1 / 61 },
    });
  });

  it('ranks agreement between legs above a single first place', () => {
    const fused = fuseRankings([
      { signal: 'lexical', ids: ['solo', 'x', 'both'] },
      { signal: 'vector', ids: ['y', 'z', 'both'] },
    ]);
    expect(fused[0]?.id).toBe('both');
  });

  it('lets a heavier leg win a disagreement', () => {
    const lists = [
      { signal: 'lexical', ids: ['lex', 'vec'] },
      { signal: 'vector', ids: ['vec', 'lex'], weight: 2 },
    ];
    expect(fuseRankings(lists)[0]?.id).toBe('vec');
    expect(fuseRankings(lists.map((l) => ({ ...l, weight: 1 })))[0]?.id).toBe('lex');
  });

  it('keeps the best rank of an id repeated within one list', () => {
    const [hit] = fuseRankings([{ signal: 'lexical', ids: ['a', 'a', 'b'] }]);
    expect(hit?.ranks).toEqual({ lexical: 1 });
    expect(fuseRankings([{ signal: 'lexical', ids: ['a', 'a', 'b'] }])[1]?.ranks).toEqual({
      lexical: 2,
    });
  });

  it('lists ids of a zero-weight list without promoting them', () => {
    const fused = fuseRankings([
      { signal: 'lexical', ids: ['a'] },
      { signal: 'substring', ids: ['z'], weight: 0 },
    ]);
    expect(fused.map((h) => [h.id, h.score])).toEqual([
      ['a', 1 / 61],
      ['z', 0],
    ]);
  });

  it('breaks score ties by best rank, then by id', () => {
    const fused = fuseRankings([
      { signal: 'a', ids: ['q', 'p'] },
      { signal: 'b', ids: ['p', 'q'] },
    ]);
    expect(fused.map((h) => h.id)).toEqual(['p', 'q']);
  });

  it('treats signal names that collide with Object.prototype as ordinary names', () => {
    const [hit] = fuseRankings([
      { signal: '__proto__', ids: ['a'] },
      { signal: 'toString', ids: ['a'] },
    ]);
    expect(Object.keys(hit!.ranks)).toEqual(['__proto__', 'toString']);
    expect(hit!.ranks['__proto__']).toBe(1);
    expect(hit!.ranks['constructor']).toBeUndefined();
  });

  it('returns nothing for no lists', () => {
    expect(fuseRankings([])).toEqual([]);
  });

  it('rejects a repeated signal, a negative weight and a bad k', () => {
    const bad: [RankedList[], number?][] = [
      [
        [
          { signal: 's', ids: ['a'] },
          { signal: 's', ids: ['b'] },
        ],
      ],
      [[{ signal: 's', ids: ['a'], weight: -1 }]],
      [[{ signal: 's', ids: ['a'], weight: Number.NaN }]],
      [[{ signal: 's', ids: ['a'] }], -1],
      [[{ signal: 's', ids: ['a'] }], Number.POSITIVE_INFINITY],
    ];
    for (const [lists, k] of bad) {
      expect(() => fuseRankings(lists, { k })).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
    try {
      fuseRankings([{ signal: 's', ids: [] }], { k: Number.NaN });
      expect.unreachable();
    } catch (error) {
      expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    }
  });
});
