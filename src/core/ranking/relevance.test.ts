import { describe, expect, it } from 'vitest';

import {
  CALIBRATED_DENSE_MODELS,
  calibratedRelevance,
  evidencePath,
  RELEVANCE_MODELS,
  RELEVANCE_TIERS,
  relevanceTier,
} from './relevance.js';

const NONE = { coverage: 0, lead: 0, rank: 1, bestCoverage: 0 };
const MODEL = {
  intercept: -2,
  coverage: 3,
  similarityZ: 0.5,
  lead: 0.25,
  concept: 1,
  rank: -0.5,
  bestCoverage: 1,
};

describe('calibratedRelevance', () => {
  it('is the logistic of the path model on known inputs', () => {
    const models = { lexical: MODEL, dense: { ...MODEL, intercept: -3 } };
    const lexical = { coverage: 0.5, lead: 2, rank: 4, bestCoverage: 0.5, concept: true };
    // -2 + 3·0.5 + 0.25·2 + 1 - 0.5·log2(4) + 1·0.5 = 0.5
    expect(calibratedRelevance(lexical, models)).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 12);
    const dense = { ...lexical, similarityZ: 2 };
    // -3 + 1.5 + 0.5·2 + 0.5 + 1 - 1 + 0.5 = 0.5
    expect(calibratedRelevance(dense, models)).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 12);
  });

  it('grows with coverage, similarity and lead, and falls with rank, with the fitted models', () => {
    for (const path of ['lexical', 'dense'] as const) {
      const base = {
        ...NONE,
        coverage: 0.3,
        bestCoverage: 0.3,
        ...(path === 'dense' ? { similarityZ: 0 } : {}),
      };
      const p = calibratedRelevance(base);
      expect(calibratedRelevance({ ...base, coverage: 0.8, bestCoverage: 0.8 })).toBeGreaterThan(p);
      expect(calibratedRelevance({ ...base, lead: 2 })).toBeGreaterThan(p);
      expect(calibratedRelevance({ ...base, rank: 8 })).toBeLessThan(p);
      if (path === 'dense')
        expect(calibratedRelevance({ ...base, similarityZ: 3 })).toBeGreaterThan(p);
    }
    expect(RELEVANCE_MODELS.dense.similarityZ).toBeGreaterThan(0);
  });

  it('reads non-finite evidence as none and clamps a runaway z', () => {
    const odd = {
      coverage: Number.NaN,
      lead: Number.POSITIVE_INFINITY,
      rank: Number.NaN,
      bestCoverage: -3,
    };
    expect(calibratedRelevance(odd)).toBeCloseTo(calibratedRelevance(NONE), 12);
    const huge = calibratedRelevance({ ...NONE, similarityZ: 1e9 });
    expect(huge).toBeCloseTo(calibratedRelevance({ ...NONE, similarityZ: 6 }), 12);
    expect(huge).toBeLessThan(1);
  });

  it('takes the dense path only when a dense leg gave evidence', () => {
    expect(evidencePath(NONE)).toBe('lexical');
    expect(evidencePath({ ...NONE, similarityZ: 0 })).toBe('dense');
  });
});

describe('relevanceTier', () => {
  it('splits at the path thresholds, the full one at or above the index one', () => {
    for (const path of ['lexical', 'dense'] as const) {
      const { full, index } = RELEVANCE_TIERS[path];
      expect(full).toBeGreaterThanOrEqual(index);
      expect(relevanceTier(full, path)).toBe('full');
      expect(relevanceTier(index, path)).toBe(full > index ? 'index' : 'full');
      expect(relevanceTier(index - 1e-9, path)).toBe('none');
    }
  });
});

describe('CALIBRATED_DENSE_MODELS', () => {
  it('names the engine default the dense model was fit for, and nothing else', () => {
    expect(CALIBRATED_DENSE_MODELS).toEqual(['use-lite-512']);
  });
});
