import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { LEG_WEIGHTS, RECALL_RRF_K, VECTOR_LEG_WEIGHTS, vectorLegWeight } from './recall-fusion.js';
import { fuseRankings, type RankedList } from './rrf.js';
import { MIN_TRUST_FACTOR, rankHits, type ScoreSubject } from './score.js';

const NOW = Date.UTC(2025, 0, 1);
const fresh: ScoreSubject = {
  createdAt: new Date(NOW).toISOString(),
  updatedAt: new Date(NOW).toISOString(),
  lastAccessedAt: null,
  heatBase: 0,
  pinned: false,
};

describe('vectorLegWeight', () => {
  it('weighs the measured offline models below the lexical leg', () => {
    expect(vectorLegWeight('hash-v1-256')).toBe(VECTOR_LEG_WEIGHTS.hash);
    expect(vectorLegWeight('hash-v1-64')).toBe(VECTOR_LEG_WEIGHTS.hash);
    expect(vectorLegWeight('use-lite-512')).toBe(VECTOR_LEG_WEIGHTS.useLite);
    expect(VECTOR_LEG_WEIGHTS.hash).toBeLessThan(LEG_WEIGHTS.lexical);
    expect(VECTOR_LEG_WEIGHTS.useLite).toBeLessThan(LEG_WEIGHTS.lexical);
  });

  it('gives a model it has no measurement for the equal weight of the RRF paper', () => {
    for (const model of ['Xenova/all-MiniLM-L6-v2', 'Xenova/bge-small-en-v1.5@q8', 'hash', '']) {
      expect(vectorLegWeight(model)).toBe(VECTOR_LEG_WEIGHTS.other);
    }
    expect(VECTOR_LEG_WEIGHTS.other).toBe(LEG_WEIGHTS.lexical);
  });
});

describe('recall fusion with trust', () => {
  // Every leg a recall can run, at the weights recall gives them.
  const legWeights = fc.subarray(
    [
      LEG_WEIGHTS.lexical,
      LEG_WEIGHTS.identifierCode,
      LEG_WEIGHTS.identifierPlain,
      VECTOR_LEG_WEIGHTS.useLite,
      VECTOR_LEG_WEIGHTS.other,
    ],
    { minLength: 1 },
  );

  it('ranks a trusted memory in the top k + 1 of some legs above an untrusted first place there', () => {
    fc.assert(
      fc.property(legWeights, fc.integer({ min: 2, max: RECALL_RRF_K + 1 }), (weights, rank) => {
        const lists: RankedList[] = weights.map((weight, i) => ({
          signal: `leg${i}`,
          ids: ['poisoned', ...Array.from({ length: rank - 2 }, (_, j) => `filler${j}`), 'trusted'],
          weight,
        }));
        const memories = new Map<string, ScoreSubject & { trust: number }>([
          ['poisoned', { ...fresh, trust: MIN_TRUST_FACTOR }],
          ['trusted', { ...fresh, trust: 1 }],
        ]);
        const ranked = rankHits(fuseRankings(lists, { k: RECALL_RRF_K }), memories, {
          now: NOW,
          trustOf: (m) => m.trust,
        });
        expect(ranked.map((h) => h.id)).toEqual(['trusted', 'poisoned']);
      }),
    );
  });
});
