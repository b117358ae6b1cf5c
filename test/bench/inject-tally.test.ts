import { describe, expect, it } from 'vitest';

import { type CoverageRow, packCoverage, sumCoverage } from '../../bench/inject/coverage.js';
import { negativeTable, outcomeTable, pct } from '../../bench/inject/report.js';
import { type PromptRecord, tallyByCategory, tallyRow } from '../../bench/inject/tally.js';

function record(partial: Partial<PromptRecord> & Pick<PromptRecord, 'outcome'>): PromptRecord {
  return { id: 'q', category: '1', tokens: 0, injected: 0, leaks: 0, ...partial };
}

describe('tallyRow', () => {
  const records = [
    record({ outcome: 'full', tokens: 100, injected: 2, rank: 1 }),
    record({ outcome: 'index', tokens: 40, injected: 1, rank: 3 }),
    record({ outcome: 'wrong', tokens: 300, injected: 3, rank: 7, leaks: 1 }),
    record({ outcome: 'silent', rank: null }),
  ];

  it('gives each outcome as a share, full + index as needed', () => {
    const row = tallyRow('all', records);
    expect(row).toMatchObject({
      n: 4,
      full: 0.25,
      index: 0.25,
      needed: 0.5,
      wrong: 0.25,
      silent: 0.25,
      injecting: 0.75,
      leaks: 1,
    });
  });

  it('takes token median and p90 over injecting prompts only', () => {
    const row = tallyRow('all', records);
    expect(row.tokensMedian).toBe(100);
    expect(row.tokensP90).toBe(300);
    expect(row.memoriesPerInjection).toBe(2);
  });

  it('gives the search ranks as shares at 1 and within 5, a missing needed memory counting as a miss', () => {
    const row = tallyRow('all', records);
    expect(row.rank1).toBe(0.25);
    expect(row.rank5).toBe(0.5);
  });

  it('gives NaN ranks for prompts without a needed memory, and NaN tokens when none injected', () => {
    const row = tallyRow('negatives', [record({ outcome: 'silent' })]);
    expect(row.rank1).toBeNaN();
    expect(row.tokensMedian).toBeNaN();
    expect(row.injecting).toBe(0);
  });
});

describe('tallyByCategory', () => {
  it('lists categories in the given order, skips empty ones, then overall and overall excl.', () => {
    const rows = tallyByCategory(
      [
        record({ category: '2', outcome: 'full' }),
        record({ category: '5', outcome: 'wrong' }),
        record({ category: '1', outcome: 'silent' }),
      ],
      [
        { id: '1', name: 'decision' },
        { id: '2', name: 'fix' },
        { id: '3', name: 'empty' },
        { id: '5', name: 'misleading' },
      ],
      ['5'],
    );
    expect(rows.map((r) => [r.label, r.n])).toEqual([
      ['1 decision', 1],
      ['2 fix', 1],
      ['5 misleading', 1],
      ['overall', 3],
      ['overall excl. misleading', 2],
    ]);
    expect(rows.at(-1)!.full).toBe(0.5);
  });
});

describe('packCoverage', () => {
  const memories = [
    { id: 'd1', kind: 'decision' },
    { id: 'd2', kind: 'decision' },
    { id: 'p1', kind: 'preference' },
    { id: 'e1', kind: 'error' },
  ];
  const questions = [
    { id: 'q1', needed: [{ id: 'd1', kind: 'decision' }] },
    { id: 'q2', needed: [{ id: 'd2', kind: 'decision' }] },
    { id: 'q3', needed: [{ id: 'p1', kind: 'preference' }] },
    { id: 'q4', needed: [{ id: 'e1', kind: 'error' }] },
  ];

  it('counts a question covered when its needed memory of that kind is in the pack in full', () => {
    const rows = packCoverage(
      [
        { id: 'd1', full: true },
        { id: 'p1', full: false },
        { id: 'e1', full: true },
      ],
      questions,
      memories,
    );
    expect(rows).toEqual([
      { kind: 'decision', questions: 2, covered: 1, memories: 2, memoriesInPack: 1 },
      { kind: 'preference', questions: 1, covered: 0, memories: 1, memoriesInPack: 0 },
    ]);
  });

  it('sums projects kind by kind', () => {
    const one: CoverageRow[] = packCoverage([{ id: 'd1', full: true }], questions, memories);
    expect(sumCoverage([one, one])[0]).toEqual({
      kind: 'decision',
      questions: 4,
      covered: 2,
      memories: 4,
      memoriesInPack: 2,
    });
  });
});

describe('report tables', () => {
  it('prints shares as whole percentages and n/a for NaN', () => {
    expect(pct(0.174)).toBe('17 %');
    expect(pct(Number.NaN)).toBe('n/a');
  });

  it('renders one line per row with the outcome columns', () => {
    const text = outcomeTable([
      tallyRow('overall', [record({ outcome: 'full', tokens: 90, rank: 1 })]),
    ]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^overall\s+1\s+100 %\s+0 %\s+0 %\s+0 %\s+90 \/ 90\s+0\.0\s+100 % \/ 100 %$/,
    );
    expect(negativeTable([tallyRow('chit-chat', [record({ outcome: 'silent' })])])).toContain(
      'chit-chat',
    );
  });
});
