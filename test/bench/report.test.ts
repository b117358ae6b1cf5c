import { describe, expect, it } from 'vitest';

import { breakdown, type Outcome } from '../../bench/retrieval/metrics.js';
import { categoryTable, metricCells } from '../../bench/retrieval/report.js';

const categories = [
  { id: '1', name: 'multi-hop' },
  { id: '5', name: 'adversarial', adversarial: true },
];
const outcomes: Outcome[] = [
  { conversation: 0, category: '1', rank: 1 },
  { conversation: 0, category: '1', rank: null },
  { conversation: 1, category: '5', rank: 2 },
];

describe('categoryTable', () => {
  it("prints each arm's R@10 / MRR@10 per category, named by id and name, with its question count", () => {
    const rows = { strict: breakdown(outcomes, categories, 1, 2), session: [] };
    const text = categoryTable([{ name: 'lexical', rows }], 'strict');
    expect(text.split('\n')).toEqual([
      'arm (R@10 / MRR@10)  1 multi-hop (2)  5 adversarial (1)',
      '-------------------  ---------------  -----------------',
      'lexical                0.500 / 0.500      1.000 / 0.500',
    ]);
  });
});

describe('metricCells', () => {
  it('prints a dash for a set without questions instead of zeros', () => {
    const heldOut = breakdown(outcomes, categories, 5, 10).find((r) => r.label.startsWith('held'));
    expect(heldOut?.metrics.n).toBe(0);
    expect(metricCells(heldOut!.metrics)).toEqual(['-', '-', '-', '-']);
  });
});
