import { describe, expect, it } from 'vitest';

import { termOf, words } from './analyze.js';
import {
  conceptQuery,
  CONCEPTS,
  conceptsOf,
  cueCoverage,
  MAX_CONCEPTS_PER_QUERY,
} from './concepts.js';

describe('conceptsOf', () => {
  it('names the concept a question asks about by its kind', () => {
    expect(conceptsOf('Which package manager do we use?').map((c) => c.name)).toEqual([
      'package manager',
    ]);
    expect(conceptsOf('what database is the orders service on').map((c) => c.name)).toEqual([
      'database',
    ]);
    expect(conceptsOf('How do we deploy the API?').map((c) => c.name)).toEqual(['hosting']);
  });

  it('matches cues as whole words, and stays silent when the question names a member', () => {
    expect(conceptsOf('the social media campaign')).toEqual([]);
    expect(conceptsOf('is pnpm our package manager')).toEqual([]);
    expect(conceptsOf('')).toEqual([]);
  });

  it('returns at most a few concepts for a prompt naming many', () => {
    const prompt =
      'database, cache, logging, job queue, bundler, linter, test runner, package manager';
    expect(conceptsOf(prompt).length).toBe(MAX_CONCEPTS_PER_QUERY);
  });

  it('builds one lexical query of the members', () => {
    const [concept] = conceptsOf('which package manager');
    expect(conceptQuery([concept!]).split(' ')).toEqual(concept!.members);
  });
});

describe('CONCEPTS', () => {
  it('holds single-word members with distinct index terms, and cues as the analyser splits them', () => {
    for (const concept of CONCEPTS) {
      for (const member of concept.members) expect(words(member)).toEqual([member]);
      for (const cue of concept.cues) expect(words(cue).join(' ')).toBe(cue);
      const terms = concept.members.map(termOf);
      expect(new Set(terms).size).toBe(terms.length);
    }
  });
});

describe('cueCoverage', () => {
  it('is the share of the query the cue names: all of a bare cue, part of a longer question', () => {
    const ask = (query: string) => cueCoverage(query, conceptsOf(query));
    expect(ask('which package manager')).toBe(1);
    // "package" and "manager" of the terms package, manager, orders, service.
    expect(ask('which package manager does the orders service use')).toBeCloseTo(2 / 5);
  });

  it('is 0 without a concept or without query terms', () => {
    expect(cueCoverage('which package manager', [])).toBe(0);
    expect(cueCoverage('the social media campaign', conceptsOf('the social media campaign'))).toBe(
      0,
    );
    expect(cueCoverage('', CONCEPTS.slice(0, 1))).toBe(0);
  });
});
