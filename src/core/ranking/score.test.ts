import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { HEAT_MAX } from './heat.js';
import { MS_PER_DAY } from './iso-time.js';
import { type FusedHit, fuseRankings } from './rrf.js';
import {
  CLEAR_LEAD,
  MIN_TRUST_FACTOR,
  rankHits,
  RECALL_HEAT_SPAN,
  RECALL_RECENCY_SPAN,
  scoreHit,
  type ScoreSubject,
} from './score.js';

const NOW = Date.UTC(2025, 0, 1);
const daysAgo = (days: number) => new Date(NOW - days * MS_PER_DAY).toISOString();

function memory(overrides: Partial<ScoreSubject> = {}): ScoreSubject {
  const created = daysAgo(0);
  return {
    createdAt: created,
    updatedAt: created,
    lastAccessedAt: null,
    heatBase: 0,
    pinned: false,
    ...overrides,
  };
}

const hit: FusedHit = {
  id: 'm1',
  score: 2 / 61,
  ranks: { lexical: 1, vector: 1 },
  contributions: { lexical: 1 / 61, vector: 1 / 61 },
};

const anyMemory = fc.record({
  createdAt: fc.double({ min: -30, max: 10_000, noNaN: true }).map(daysAgo),
  updatedAt: fc.double({ min: -30, max: 10_000, noNaN: true }).map(daysAgo),
  lastAccessedAt: fc.option(fc.double({ min: -30, max: 10_000, noNaN: true }).map(daysAgo)),
  heatBase: fc.double({ min: -10, max: 1000, noNaN: true }),
  pinned: fc.boolean(),
});

describe('scoreHit', () => {
  it('leaves the fused score unchanged for a new, unused, fully trusted memory', () => {
    const scored = scoreHit(hit, memory(), { now: NOW, trust: 1 });
    expect(scored).toEqual({
      id: 'm1',
      score: hit.score,
      fusedScore: hit.score,
      ranks: hit.ranks,
      contributions: hit.contributions,
      factors: { recency: 1, heat: 1, trust: 1 },
      heat: 0,
    });
  });

  it('keeps the score within the documented bounds whatever the memory and options say', () => {
    fc.assert(
      fc.property(
        anyMemory,
        fc.double({ min: -2, max: 3 }),
        fc.option(fc.double({ min: -1, max: 2 })),
        (m, trust, floor) => {
          const recency = floor === null ? {} : { recency: { floor } };
          const { score, factors } = scoreHit(hit, m, { now: NOW, trust, ...recency });
          expect(factors.recency).toBeGreaterThanOrEqual(1 - RECALL_RECENCY_SPAN);
          expect(factors.recency).toBeLessThanOrEqual(1);
          expect(factors.heat).toBeLessThan(1 + RECALL_HEAT_SPAN);
          expect(score).toBeGreaterThanOrEqual(
            hit.score * (1 - RECALL_RECENCY_SPAN) * MIN_TRUST_FACTOR * 0.999999,
          );
          expect(score).toBeLessThan(hit.score * (1 + RECALL_HEAT_SPAN));
        },
      ),
    );
  });

  it('splits the final score into leg contributions that add up to it', () => {
    fc.assert(
      fc.property(anyMemory, fc.double({ min: 0, max: 1, noNaN: true }), (m, trust) => {
        const scored = scoreHit(hit, m, { now: NOW, trust });
        const sum = Object.values(scored.contributions).reduce((a, b) => a + b, 0);
        expect(sum).toBeCloseTo(scored.score, 12);
        const { recency, heat, trust: t } = scored.factors;
        expect(scored.score).toBeCloseTo(hit.score * recency * heat * t, 12);
      }),
    );
  });

  it('clamps trust to [minTrust, 1] and reads NaN as least trusted', () => {
    const factor = (trust: number, minTrust?: number) =>
      scoreHit(hit, memory(), { now: NOW, trust, minTrust }).factors.trust;
    expect(factor(0)).toBe(MIN_TRUST_FACTOR);
    expect(factor(Number.NaN)).toBe(MIN_TRUST_FACTOR);
    expect(factor(7)).toBe(1);
    expect(factor(0.75)).toBe(0.75);
    expect(factor(0.1, 0.2)).toBe(0.2);
  });

  it('ranks a more trusted origin higher at equal evidence', () => {
    const trusted = scoreHit(hit, memory(), { now: NOW, trust: 1 });
    const untrusted = scoreHit(hit, memory(), { now: NOW, trust: 0.6 });
    expect(trusted.score).toBeGreaterThan(untrusted.score);
  });

  it('reports the effective heat that produced the heat factor', () => {
    const scored = scoreHit(hit, memory({ heatBase: HEAT_MAX }), { now: NOW, trust: 1 });
    expect(scored.heat).toBe(HEAT_MAX);
    expect(scored.factors.heat).toBeGreaterThan(1);
  });
});

describe('rankHits', () => {
  const fused = fuseRankings([
    { signal: 'lexical', ids: ['strong', 'hot', 'cold', 'gone'] },
    { signal: 'vector', ids: ['strong', 'cold', 'hot'] },
  ]);

  it('puts a used memory above an unused one with equal evidence', () => {
    const memories = new Map([
      ['strong', memory()],
      ['hot', memory({ heatBase: 6 })],
      ['cold', memory()],
    ]);
    // hot (2nd, 3rd) and cold (3rd, 2nd) have the same fused score.
    const ids = rankHits(fused, memories, { now: NOW, trustOf: () => 1 }).map((h) => h.id);
    expect(ids.indexOf('hot')).toBeLessThan(ids.indexOf('cold'));
    const unused = new Map([...memories].map(([id]) => [id, memory()]));
    const baseline = rankHits(fused, unused, { now: NOW, trustOf: () => 1 }).map((h) => h.id);
    expect(baseline.indexOf('cold')).toBeLessThan(baseline.indexOf('hot'));
  });

  it('lets age break a tie in fused evidence but not overturn a lead between legs', () => {
    const lists = fuseRankings([
      { signal: 'lexical', ids: ['old', 'tie-old', 'tie-new', 'new'] },
      { signal: 'vector', ids: ['old', 'tie-new', 'tie-old', 'new'] },
    ]);
    const old = memory({ createdAt: daysAgo(3000), updatedAt: daysAgo(3000) });
    const memories = new Map([
      ['old', old],
      ['tie-old', old],
      ['tie-new', memory()],
      ['new', memory()],
    ]);
    const ranked = rankHits(lists, memories, { now: NOW, trustOf: () => 1 });
    // tie-old and tie-new have equal fused scores (2nd + 3rd); first in both legs leads by 1.6 %.
    expect(ranked.map((h) => h.id)).toEqual(['old', 'tie-new', 'tie-old', 'new']);
    expect(ranked[0]?.factors.recency).toBeCloseTo(1 - RECALL_RECENCY_SPAN, 6);
  });

  it('never lets recency or heat overturn a clear fused lead at equal trust', () => {
    fc.assert(
      fc.property(
        anyMemory,
        anyMemory,
        fc.double({ min: 1e-6, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        (leaderMemory, otherMemory, otherScore, extraLead, trust) => {
          const leader = { ...hit, id: 'leader', score: otherScore * CLEAR_LEAD * (1 + extraLead) };
          const other = { ...hit, id: 'other', score: otherScore };
          const ranked = rankHits(
            [other, leader],
            new Map([
              ['leader', leaderMemory],
              ['other', otherMemory],
            ]),
            { now: NOW, trustOf: () => trust },
          );
          expect(ranked.map((h) => h.id)).toEqual(['leader', 'other']);
        },
      ),
    );
  });

  it('drops candidates whose memory no longer exists', () => {
    const memories = new Map([['cold', memory()]]);
    expect(rankHits(fused, memories, { now: NOW, trustOf: () => 1 }).map((h) => h.id)).toEqual([
      'cold',
    ]);
  });

  it('asks trustOf about each memory', () => {
    const quarantined = { ...memory(), origin: 'web' };
    const memories = new Map([
      ['strong', quarantined],
      ['hot', { ...memory(), origin: 'user' }],
    ]);
    const ranked = rankHits(fused, memories, {
      now: NOW,
      trustOf: (m) => (m.origin === 'user' ? 1 : 0),
    });
    // First in both legs, but untrusted: half its evidence is worth less than 2nd + 3rd place.
    expect(ranked.map((h) => [h.id, h.factors.trust])).toEqual([
      ['hot', 1],
      ['strong', MIN_TRUST_FACTOR],
    ]);
  });
});
