import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { analyzeQuery, analyzeText, MAX_QUERY_TERMS, MAX_TERM_CHARS, words } from './analyze.js';

describe('analyzeText', () => {
  it('lowercases, folds accents, splits on anything but letters and digits, and stems with Porter2', () => {
    expect(analyzeText('Café migrations: SQLITE_BUSY in sqlite-store.ts, running 2x')).toEqual([
      'cafe',
      'migrat',
      'sqlite',
      'busi',
      'in',
      'sqlite',
      'store',
      'ts',
      'run',
      '2x',
    ]);
  });

  it('applies Porter2 rules that Porter1 does not (generously → generous, dying → die)', () => {
    expect(analyzeText('generously dying news')).toEqual(['generous', 'die', 'news']);
  });

  it('keeps non-Latin words and cuts very long tokens', () => {
    expect(analyzeText('東京 Ελλάδα')).toEqual(['東京', 'ελλαδα']);
    expect(analyzeText('x'.repeat(300))[0]).toHaveLength(MAX_TERM_CHARS);
  });

  it('yields only runs of letters, digits and private-use characters for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        for (const term of analyzeText(input)) expect(term).toMatch(/^[\p{L}\p{N}\p{Co}]+$/u);
      }),
      { numRuns: 500 },
    );
  });

  it('analyses ASCII text exactly as the Unicode path does (property)', () => {
    // A trailing " é" sends the text down the Unicode path and adds one word, "e", at the end.
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 300 }), (text) => {
        expect([...words(text), 'e']).toEqual(words(`${text} é`));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('analyzeQuery', () => {
  it('drops stop words unless nothing else is left, and keeps each term once', () => {
    expect(analyzeQuery('What did the team decide about the caches and the cache?')).toEqual([
      'team',
      'decid',
      'cach',
    ]);
    expect(analyzeQuery('what is it')).toEqual(['what', 'is', 'it']);
    expect(analyzeQuery('🎉 ***')).toEqual([]);
  });

  it(`returns at most ${MAX_QUERY_TERMS} terms`, () => {
    const query = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    expect(analyzeQuery(query)).toHaveLength(MAX_QUERY_TERMS);
  });
});
