import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { promptRelevance, relevanceOf, stem, topicTerms } from './prompt-relevance.js';

describe('stem', () => {
  it('brings inflections of one word to one stem', () => {
    const groups = [
      ['migration', 'migrations'],
      ['install', 'installing', 'installs'],
      ['deploy', 'deployed', 'deploying', 'deploys'],
      ['store', 'stored', 'stores'],
      ['log', 'logging', 'logs'],
      ['dependency', 'dependencies'],
      ['cache', 'caches'],
    ];
    for (const group of groups) expect(new Set(group.map(stem)).size, group.join()).toBe(1);
    expect(stem('status')).toBe('status');
    expect(stem('class')).not.toBe(stem('clash'));
  });
});

describe('topicTerms', () => {
  it('drops stop words and prompt filler, keeps numbers of two digits and whole code tokens', () => {
    expect([...topicTerms('yes, go ahead please, thanks!').keys()]).toEqual([]);
    const terms = topicTerms('Why does GET /orders return 500 after the orders.status migration?');
    expect([...terms.keys()].sort()).toEqual(
      [
        '500',
        'code:/orders',
        'code:orders.status',
        'migration',
        'order',
        'return',
        'status',
      ].sort(),
    );
    expect(topicTerms('step 1 of 2').has('1')).toBe(false);
  });

  it('splits identifiers into words and weighs generic programming words half', () => {
    const terms = topicTerms('getUserById fails the test');
    expect(terms.get('user')).toBe(1);
    expect(terms.get('code:getuserbyid')).toBe(1);
    expect(terms.get('test')).toBe(0.5);
    expect(terms.get('fail')).toBe(0.5);
  });

  it('reads a bounded head of any input without throwing (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (text) => {
        expect(() => topicTerms(text)).not.toThrow();
      }),
    );
    expect(topicTerms(`deploy ${'x '.repeat(100_000)} invoices`).has('invoic')).toBe(false);
  });
});

describe('promptRelevance', () => {
  it('is 1 for a text with itself, 0 without shared topic words, and bounded (property)', () => {
    expect(
      promptRelevance('deploy the staging database', 'Deploy the staging database.').score,
    ).toBe(1);
    expect(promptRelevance('write a haiku about autumn', 'We deploy with just deploy.')).toEqual({
      score: 0,
      shared: [],
    });
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const score = promptRelevance(a, b).score;
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(score).toBeCloseTo(promptRelevance(b, a).score, 12);
      }),
    );
  });

  it('scores a focused memory above a long one that mentions the same word in passing', () => {
    const focused = promptRelevance('how do we deploy?', 'We deploy with just deploy <env>.');
    const passing = promptRelevance(
      'how do we deploy?',
      'Checkpoint: refactored the cart, the invoices, the PDF renderer and the tax tables; deploy later.',
    );
    expect(focused.score).toBeGreaterThan(2 * passing.score);
    expect(focused.shared).toEqual(['deploy']);
  });

  it('counts an exact code token on top of its words', () => {
    const prompt = topicTerms('tests fail with ECONNREFUSED 127.0.0.1:6379');
    const exact = relevanceOf(prompt, topicTerms('ECONNREFUSED 127.0.0.1:6379: Redis is down'));
    const words = relevanceOf(prompt, topicTerms('econnrefused on port 6379 from 127 hosts'));
    expect(exact.score).toBeGreaterThan(words.score);
    expect(exact.shared).toContain('code:127.0.0.1:6379');
  });
});
