import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../../core/errors.js';
import { MAX_QUERY_TERMS } from '../query-terms.js';
import { buildFilter, buildFtsQuery, knnK, lexicalMatchOf, MAX_KNN_K } from './sqlite-search.js';

describe('buildFtsQuery', () => {
  it('returns null when the input has no searchable words', () => {
    for (const input of ['', '   ', '"', '*', '()', '🎉🔥', '\u0000', '- ^ : + {}']) {
      expect(buildFtsQuery(input)).toBeNull();
    }
  });

  it('quotes each analysed term and ORs them: lower-cased, accents folded, stemmed, once each', () => {
    expect(buildFtsQuery('NEAR(x y) Foo foo "bar" AND')).toBe(
      '"near" OR "x" OR "y" OR "foo" OR "bar"',
    );
    expect(buildFtsQuery('café naïve 東京 x1')).toBe('"cafe" OR "naiv" OR "東京" OR "x1"');
    expect(buildFtsQuery('NODE_ENV=prod')).toBe('"node" OR "env" OR "prod"');
    expect(buildFtsQuery('migrations migrated')).toBe('"migrat"');
  });

  it('drops stop words unless the query has nothing else', () => {
    expect(buildFtsQuery('What did the team decide about the cache?')).toBe(
      '"team" OR "decid" OR "cach"',
    );
    expect(buildFtsQuery('what is it')).toBe('"what" OR "is" OR "it"');
  });

  it(`caps the number of terms at ${MAX_QUERY_TERMS}`, () => {
    const query = buildFtsQuery(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '));
    expect(query?.split(' OR ')).toHaveLength(MAX_QUERY_TERMS);
  });

  it('always yields a list of quoted strings without inner quotes (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const query = buildFtsQuery(input);
        if (query !== null) {
          expect(query).toMatch(/^"[^"]+"( OR "[^"]+")*$/u);
          expect(query.includes('\u0000')).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('lexicalMatchOf', () => {
  it('looks for common terms in the body only and for the rest in either field', () => {
    expect(lexicalMatchOf(['parser', 'flaki'], ['parser', 'flaki'])).toBe('"parser" OR "flaki"');
    expect(lexicalMatchOf(['parser', 'flaki'], ['flaki'])).toBe('"flaki" OR {body} : ("parser")');
    expect(lexicalMatchOf(['parser', 'sqlite'], [])).toBe('{body} : ("parser" OR "sqlite")');
    expect(lexicalMatchOf([], [])).toBeNull();
  });
});

describe('buildFilter', () => {
  it('refuses a time bound that is not a date with INVALID_INPUT', () => {
    let error: unknown;
    try {
      buildFilter({ createdAfter: 'last tuesday' });
    } catch (e) {
      error = e;
    }
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
  });

  it('normalises time bounds to the stored ISO form', () => {
    expect(buildFilter({ createdBefore: '2025-01-04' }).params).toEqual([
      '2025-01-04T00:00:00.000Z',
    ]);
  });
});

describe('knnK', () => {
  it('asks the KNN for twice the limit, at least 64 and at most what sqlite-vec allows', () => {
    expect(knnK(1)).toBe(64);
    expect(knnK(30)).toBe(64);
    expect(knnK(100)).toBe(200);
    expect(knnK(1_000_000)).toBe(MAX_KNN_K);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (limit) => {
        expect(knnK(limit)).toBeGreaterThanOrEqual(Math.min(limit, MAX_KNN_K));
        expect(knnK(limit)).toBeLessThanOrEqual(MAX_KNN_K);
      }),
    );
  });
});
