import { describe, expect, it } from 'vitest';

import {
  CONTEXT_AFTER,
  CONTEXT_BEFORE,
  CONTEXT_NEIGHBOUR_CHARS,
  contextLinesOf,
  joinContext,
} from './capture-context.js';

describe('joinContext', () => {
  it('puts each neighbour on the line of its position, a missing one as an empty line', () => {
    expect(CONTEXT_BEFORE).toBe(2);
    expect(CONTEXT_AFTER).toBe(2);
    expect(joinContext(['p2', 'p1'], ['n1', 'n2'])).toBe('p2\np1\nn1\nn2');
    expect(joinContext(['p1'], ['n1'])).toBe('\np1\nn1');
    expect(joinContext([], ['n1', 'n2'])).toBe('\n\nn1\nn2');
    expect(joinContext(['p2', 'p1'], [])).toBe('p2\np1');
    expect(joinContext([], [])).toBe('');
  });

  it('keeps the nearest neighbours, cuts each one and puts its own line breaks on one line', () => {
    expect(joinContext(['p3', 'p2', 'p1'], ['n1', 'n2', 'n3'])).toBe('p2\np1\nn1\nn2');
    const long = 'x'.repeat(CONTEXT_NEIGHBOUR_CHARS + 50);
    expect(joinContext([long], [])).toBe(`\n${'x'.repeat(CONTEXT_NEIGHBOUR_CHARS)}`);
    expect(joinContext(['npm test failed:\n  TypeError: x\n'], [])).toBe(
      '\nnpm test failed: TypeError: x',
    );
  });
});

describe('contextLinesOf', () => {
  it('gives the neighbour at each position back, empty where there is none', () => {
    expect(contextLinesOf(joinContext(['p1'], ['n1']))).toEqual(['', 'p1', 'n1', '']);
    expect(contextLinesOf(joinContext(['a\nb', 'c'], ['d', 'e']))).toEqual(['a b', 'c', 'd', 'e']);
    expect(contextLinesOf('')).toEqual(['', '', '', '']);
  });
});
