import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { stem, topicTerms } from './prompt-relevance.js';

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
