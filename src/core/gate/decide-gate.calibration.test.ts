import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { NO_CUES } from '../cues/detect-cues.js';
import { decideBypass } from '../privileges/privileges.js';
import { decideGate, NEAR_DUPLICATE_THRESHOLD } from './decide-gate.js';
import { lexicalSimilarity } from './similarity.js';

interface Fixture {
  mustMerge: [string, string][];
  mustNotMerge: [string, string][];
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../../test/fixtures/gate/near-duplicates.json', import.meta.url),
    'utf8',
  ),
) as Fixture;

function decide(existing: string, incoming: string) {
  return decideGate({
    content: incoming,
    origin: 'network',
    bypass: decideBypass({ origin: 'network', cues: NO_CUES }),
    candidates: [
      {
        id: '01HZZZZZZZZZZZZZZZZZZZZZZA',
        content: existing,
        origin: 'network',
        quarantine: 'none',
      },
    ],
    threshold: NEAR_DUPLICATE_THRESHOLD,
  }).action;
}

describe('near-duplicate calibration', () => {
  it.each(fixture.mustMerge)('merges the re-capture %j', (existing, incoming) => {
    expect(decide(existing, incoming)).toBe('merge');
    expect(decide(incoming, existing)).toBe('merge');
  });

  it.each(fixture.mustNotMerge)('keeps the different fact %j apart', (existing, incoming) => {
    expect(decide(existing, incoming)).toBe('store');
    expect(decide(incoming, existing)).toBe('store');
  });

  it('leaves a margin on both sides of the threshold', () => {
    const merged = fixture.mustMerge.map(([a, b]) => lexicalSimilarity(a, b).score);
    const apart = fixture.mustNotMerge
      .map(([a, b]) => lexicalSimilarity(a, b))
      .filter((s) => !s.guarded)
      .map((s) => s.score);
    // Measured: lowest must-merge 0.74, highest unguarded must-not-merge 0.45.
    expect(Math.min(...merged)).toBeGreaterThanOrEqual(NEAR_DUPLICATE_THRESHOLD + 0.03);
    expect(Math.max(...apart)).toBeLessThanOrEqual(NEAR_DUPLICATE_THRESHOLD - 0.2);
  });
});

describe('lexicalSimilarity', () => {
  it('is symmetric, bounded and 1 for a text with itself', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const ab = lexicalSimilarity(a, b);
        expect(ab).toEqual(lexicalSimilarity(b, a));
        expect(ab.score).toBeGreaterThanOrEqual(0);
        expect(ab.score).toBeLessThanOrEqual(1);
        if (/[\p{L}\p{N}]/u.test(a))
          expect(lexicalSimilarity(a, a)).toEqual({ score: 1, guarded: false });
      }),
    );
  });

  it('ignores case, spacing and punctuation', () => {
    expect(lexicalSimilarity('Use  PNPM!', 'use pnpm').score).toBe(1);
  });
});
