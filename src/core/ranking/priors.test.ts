import { describe, expect, it } from 'vitest';

import {
  entityPrior,
  MAX_ENTITIES,
  queryEntities,
  sessionPrior,
  SUBJECT_CHARS,
  subjectOf,
} from './priors.js';

describe('sessionPrior', () => {
  it('lends each candidate its session’s summed lexical score, min-max normalised over sessions', () => {
    const sessions = new Map<string, string | null>([
      ['a', 's1'],
      ['b', 's1'],
      ['c', 's2'],
      ['d', 's3'],
      ['e', null],
      ['f', 's1'],
    ]);
    const prior = sessionPrior(
      [
        { id: 'a', score: 2 },
        { id: 'b', score: 3 },
        { id: 'c', score: 4 },
        { id: 'd', score: 1 },
        { id: 'e', score: 9 },
      ],
      sessions,
    );
    // s1 = 5, s2 = 4, s3 = 1 → 1, 0.75, 0; f shares s1 without a lexical hit of its own.
    expect(Object.fromEntries(prior)).toEqual({ a: 1, b: 1, c: 0.75, d: 0, f: 1 });
  });

  it('is empty without sessions', () => {
    expect(sessionPrior([{ id: 'a', score: 1 }], new Map([['a', null]])).size).toBe(0);
  });
});

describe('queryEntities / entityPrior', () => {
  it('finds names and code terms, not capitalised function words', () => {
    expect(queryEntities('What did Caroline say about sqlite-store.ts and Vitest?')).toEqual([
      'sqlite-store.ts',
      'caroline',
      'vitest',
    ]);
    expect(queryEntities('When did we decide it?')).toEqual([]);
    expect(
      queryEntities(Array.from({ length: 30 }, (_, i) => `Name${'x'.repeat(i)}`).join(' ')),
    ).toHaveLength(MAX_ENTITIES);
  });

  it('gives each memory the share of entities it names as whole words, within [0, 1]', () => {
    const prior = entityPrior(
      ['caroline', 'vitest'],
      new Map([
        ['both', { content: 'Caroline moved the tests to Vitest.' }],
        ['one', { content: "caroline's notes" }],
        ['part', { content: 'Carolines and vitests' }],
        ['none', { content: 'nothing here' }],
      ]),
    );
    expect(Object.fromEntries(prior)).toEqual({ both: 1, one: 0.5 });
  });

  it('counts a name in the subject (the start, after a [label]) fully and a later mention at half', () => {
    const prior = entityPrior(
      ['caroline'],
      new Map([
        ['speaker', { content: '[8 May 2023] Caroline: I went to the support group.' }],
        [
          'mention',
          {
            content: `[8 May 2023] Melanie: ${'so much happened this week, '.repeat(3)}right Caroline?`,
          },
        ],
      ]),
    );
    expect(Object.fromEntries(prior)).toEqual({ speaker: 1, mention: 0.5 });
  });

  it('ends the subject at its first colon: the speaker, not the person the speaker addresses', () => {
    const prior = entityPrior(
      ['caroline'],
      new Map([
        ['speaker', { content: '[8 May 2023] Caroline: Thanks, Melanie!' }],
        ['addressed', { content: '[8 May 2023] Melanie: Thanks, Caroline!' }],
        ['edit', { content: 'Edited src/caroline.ts: renamed the export' }],
      ]),
    );
    expect(Object.fromEntries(prior)).toEqual({ speaker: 1, addressed: 0.5, edit: 1 });
    expect(subjectOf('Edited src/app.ts: renamed the export')).toBe('Edited src/app.ts');
    expect(subjectOf('[8 May 2023] Caroline: hi')).toBe('Caroline');
  });

  it(`keeps the first ${SUBJECT_CHARS} characters as the subject when no colon falls inside them`, () => {
    const long = `${'word '.repeat(20)}: late colon`;
    expect(subjectOf(long)).toBe(long.slice(0, SUBJECT_CHARS));
    expect(subjectOf('no colon at all')).toBe('no colon at all');
    // A colon with no space (a URL, a time) does not end it.
    expect(subjectOf('see http://x.io at 10:30 today')).toBe('see http://x.io at 10:30 today');
  });

  it('treats regex characters in entities literally', () => {
    const prior = entityPrior(
      ['a.b(c)'],
      new Map([
        ['m', { content: 'see a.b(c) here' }],
        ['n', { content: 'axb(c)' }],
      ]),
    );
    expect(Object.fromEntries(prior)).toEqual({ m: 1 });
  });
});
