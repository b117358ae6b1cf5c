import { describe, expect, it } from 'vitest';

import type { HookStats } from '../../bench/inject/measure.js';
import {
  type CodingResult,
  type LocomoResult,
  type ModeResult,
  renderResults,
} from '../../bench/inject/render-results.js';
import { type PromptRecord, tallyByCategory, tallyRow } from '../../bench/inject/tally.js';

const CATEGORIES = [{ id: '1', name: 'multi-hop' }];

function record(outcome: PromptRecord['outcome'], rank: number | null): PromptRecord {
  return {
    id: 'q',
    category: '1',
    outcome,
    tokens: outcome === 'silent' ? 0 : 300,
    injected: 1,
    leaks: 0,
    rank,
  };
}

function hooks(leaks: number): HookStats {
  const leak = { prompt: 'p', ids: ['m'] };
  return {
    runs: 4,
    failures: 0,
    p50: 100,
    p95: 120,
    searchFallbacks: 0,
    leaks: Array.from({ length: leaks }, () => leak),
  };
}

function locomo(records: PromptRecord[], leaks = 0): LocomoResult {
  return { rows: tallyByCategory(records, CATEGORIES, []), records, hooks: hooks(leaks) };
}

const CODING: CodingResult = {
  rows: [tallyRow('overall', [record('silent', null)])],
  negatives: [tallyRow('overall', [])],
  control: tallyRow('control', []),
  packs: [],
  packTotal: [],
  records: { questions: [record('silent', null)], negatives: [], control: [] },
  memories: { written: 1, stored: 1, projects: 1 },
  hooks: hooks(0),
};

describe('renderResults', () => {
  it('reports the long-turn subset beside the dialog turns, in its own section and summary rows', () => {
    const result: ModeResult = {
      mode: 'down',
      coding: CODING,
      locomo: locomo([record('wrong', 3), record('silent', 2)]),
      locomoLong: {
        ...locomo([record('full', 1), record('silent', 1)], 1),
        negatives: tallyRow('all negatives', [record('wrong', null), record('silent', null)]),
      },
    };
    const out = renderResults({
      date: '2026-12-07',
      setting: 'test',
      locomoNote: 'conv-26, 2 turns',
      locomoLongNote: 'conv-26, 1 memories of 180–400 words',
      results: [result],
    });
    expect(out).toContain('### LoCoMo subset (2 questions: conv-26, 2 turns)');
    expect(out).toContain(
      '### LoCoMo long turns (2 questions: conv-26, 1 memories of 180–400 words)',
    );
    const row = (label: string) => out.split('\n').find((line) => line.startsWith(label)) ?? '';
    expect(row('LoCoMo subset: needed memory injected')).toMatch(/\s0 %/);
    expect(row('LoCoMo long turns: needed memory injected')).toMatch(/\s50 %/);
    expect(row('LoCoMo long turns: search ranks needed first / in top 5')).toMatch(
      /100 % \/ 100 %/,
    );
    expect(out).toContain('Negative prompts asked in this store: 2, injecting anything 50 %.');
    expect(row('LoCoMo long turns: negative prompts that injected anything')).toMatch(/\s50 %/);
    // A leak in any subset counts.
    expect(row('cross-project leaks')).toMatch(/\s1\s/);
  });

  it('leaves the long-turn rows out when that subset did not run', () => {
    const out = renderResults({
      date: '2026-12-07',
      setting: 'test',
      locomoNote: undefined,
      locomoLongNote: undefined,
      results: [{ mode: 'up', coding: CODING, locomo: undefined, locomoLong: undefined }],
    });
    expect(out).not.toContain('LoCoMo long turns');
  });
});
