import { describe, expect, it } from 'vitest';

import { estimateTokens, TRUNCATION_MARKER } from '../budget.js';
import type { RenderItem } from './render-memories.js';
import { renderMemories } from './render-memories.js';
import { renderMemoriesWithinBudget } from './render-within-budget.js';

const NONCE = '0123456789abcdef0123456789abcdef';

function item(id: string, words: number): RenderItem {
  return {
    id,
    content: Array.from({ length: words }, (_, index) => `word${index}`).join(' '),
    origin: 'user_deliberate',
    createdAt: '2026-11-30T10:00:00Z',
    kind: 'note',
  };
}

describe('renderMemoriesWithinBudget', () => {
  it('renders the same text as renderMemories when everything fits', () => {
    const items = [item('A', 5), item('B', 5)];
    const out = renderMemoriesWithinBudget(items, { nonce: NONCE, budgetTokens: 1500, title: 'T' });
    expect(out.text).toBe(renderMemories(items, { nonce: NONCE, title: 'T' }));
    expect(out).toMatchObject({ included: ['A', 'B'], omitted: [], truncated: false });
    expect(out.tokens).toBe(estimateTokens(out.text));
  });

  it('cuts the first memory that does not fit and stops there', () => {
    const out = renderMemoriesWithinBudget([item('A', 5), item('B', 400), item('C', 5)], {
      nonce: NONCE,
      budgetTokens: 600,
    });
    expect(out.included).toEqual(['A', 'B']);
    expect(out.omitted).toEqual(['C']);
    expect(out.truncated).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(600);
    const lines = out.text.split('\n');
    expect(lines.at(-2)!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(lines.at(-1)).toBe(`<<<end mnemo-recall nonce=${NONCE}>>>`);
  });

  it('skips a memory that does not fit when truncation is off', () => {
    const out = renderMemoriesWithinBudget([item('A', 5), item('B', 400), item('C', 5)], {
      nonce: NONCE,
      budgetTokens: 600,
      truncate: false,
    });
    expect(out).toMatchObject({ included: ['A', 'C'], omitted: ['B'], truncated: false });
  });

  it('skips rather than cuts when too little budget is left for a useful body', () => {
    const fits = renderMemoriesWithinBudget([item('A', 5)], { nonce: NONCE, budgetTokens: 1500 });
    const out = renderMemoriesWithinBudget([item('A', 5), item('B', 400)], {
      nonce: NONCE,
      budgetTokens: fits.tokens + 20,
    });
    expect(out).toMatchObject({ included: ['A'], omitted: ['B'], truncated: false });
  });

  it('renders nothing when the budget cannot hold the frame and one memory', () => {
    const out = renderMemoriesWithinBudget([item('A', 50)], {
      nonce: NONCE,
      budgetTokens: 40,
      truncate: false,
    });
    expect(out).toEqual({ text: '', tokens: 0, included: [], omitted: ['A'], truncated: false });
  });
});
