import { describe, expect, it } from 'vitest';

import { RECALL_BM25F } from '../core/ranking/bm25f.js';
import { COMMON_TERM_DOCS, contextMatchTerms, rankCandidates } from './lexical-rules.js';

const statsWith = (docFrequency: Record<string, number>) => ({
  docs: 100_000,
  fieldTerms: { body: 1_000_000, context: 3_000_000 },
  docFrequency: new Map(Object.entries(docFrequency)),
});

describe('contextMatchTerms', () => {
  it(`looks for a term in the context unless more than ${COMMON_TERM_DOCS} memories hold it`, () => {
    const stats = statsWith({ parser: COMMON_TERM_DOCS + 1, redis: COMMON_TERM_DOCS, flaki: 3 });
    expect(contextMatchTerms(['parser', 'redis', 'flaki', 'unseen'], stats)).toEqual([
      'redis',
      'flaki',
      'unseen',
    ]);
  });
});

describe('rankCandidates', () => {
  it('scores a candidate on both fields, whichever field the index matched it by', () => {
    const stats = statsWith({ parser: 30_000, flaki: 10 });
    const [hit] = rankCandidates(
      ['parser', 'flaki'],
      [{ id: 'a', seq: 1, content: 'flaky upload', tags: [], context: 'the parser again' }],
      stats,
      RECALL_BM25F,
      1,
    );
    const [bodyOnly] = rankCandidates(
      ['parser', 'flaki'],
      [{ id: 'a', seq: 1, content: 'flaky upload', tags: [], context: 'nothing here' }],
      stats,
      RECALL_BM25F,
      1,
    );
    expect(hit!.score).toBeGreaterThan(bodyOnly!.score);
  });
});

describe('rankCandidates: body coverage', () => {
  it("gives each hit the idf-weighted share of the query's terms in its own text, context not counted", () => {
    const stats = {
      docs: 10,
      fieldTerms: { body: 40, context: 40 },
      docFrequency: new Map([
        ['pool', 1],
        ['connect', 5],
      ]),
    };
    const candidates = [
      { id: 'both', seq: 1, content: 'connection pool', tags: [], context: '' },
      { id: 'common', seq: 2, content: 'connection refused', tags: [], context: 'the pool' },
    ];
    const [both, common] = rankCandidates(['pool', 'connect'], candidates, stats, RECALL_BM25F, 10);
    expect(both).toMatchObject({ id: 'both', coverage: 1 });
    const idf = (n: number) => Math.log(1 + (10 - n + 0.5) / (n + 0.5));
    expect(common?.id).toBe('common');
    expect(common?.coverage).toBeCloseTo(idf(5) / (idf(1) + idf(5)), 12);
  });
});
