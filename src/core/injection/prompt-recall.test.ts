import { describe, expect, it } from 'vitest';

import { OTHER_PROJECT, PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import type { Memory } from '../memory.js';
import { RELEVANCE_TIERS } from '../ranking/relevance.js';
import {
  hasTopic,
  indexText,
  MAX_INDEX_ITEMS,
  MAX_PROMPT_ITEMS,
  type PromptCandidate,
  selectPromptRecall,
} from './prompt-recall.js';

const target = { projectKey: PROJECT, alreadyInjected: new Set<string>() };
const LEXICAL = { coverage: 0.5, lead: 0, rank: 1, bestCoverage: 0.5 };
const DENSE = { ...LEXICAL, similarityZ: 1 };

function candidate(memory: Memory, relevance: number, dense = false): PromptCandidate {
  return { memory, relevance, evidence: dense ? DENSE : LEXICAL };
}

describe('selectPromptRecall', () => {
  it('puts confident memories in full, borderline ones as index entries, the rest nowhere', () => {
    const { full, index } = RELEVANCE_TIERS.lexical;
    const confident = testMemory({
      content: 'GET /orders returned 500: orders.status was missing.',
    });
    const borderline = testMemory({ content: 'Ran the pending migration on staging.' });
    const weak = testMemory({ content: 'We deploy with just deploy <env>.' });
    const recall = selectPromptRecall({
      candidates: [
        candidate(borderline, (full + index) / 2),
        candidate(weak, index / 2),
        candidate(confident, full),
      ],
      target,
    });
    expect(recall.chosen.map((c) => [c.memory.id, c.tier])).toEqual([
      [confident.id, 'full'],
      [borderline.id, 'index'],
    ]);
    expect(recall.best).toBe(full);
  });

  it('reads the tiers of the path the evidence came from', () => {
    const memory = testMemory({ content: 'The orders service runs on PostgreSQL 16.' });
    const between = (RELEVANCE_TIERS.lexical.index + RELEVANCE_TIERS.dense.index) / 2;
    const [low, high] = [RELEVANCE_TIERS.lexical.index, RELEVANCE_TIERS.dense.index].sort();
    expect(low).toBeLessThan(high!);
    const lexical = selectPromptRecall({ candidates: [candidate(memory, between)], target });
    const dense = selectPromptRecall({ candidates: [candidate(memory, between, true)], target });
    expect(lexical.chosen.length + dense.chosen.length).toBe(1);
  });

  it('injects nothing when no candidate reaches the index tier', () => {
    const weak = testMemory({ content: 'Checkpoint: cart refactor, invoices, tax tables.' });
    const recall = selectPromptRecall({
      candidates: [candidate(weak, RELEVANCE_TIERS.lexical.index * 0.9)],
      target,
    });
    expect(recall.chosen).toEqual([]);
    expect(recall.best).toBeGreaterThan(0);
  });

  it('never places a network, quarantined, out-of-scope, tainted or already injected memory', () => {
    const content = 'GET /orders returns 500 after the migration';
    const shown = testMemory({ content });
    const refused = [
      testMemory({ content, origin: 'network', quarantine: 'approved' }),
      testMemory({ content, quarantine: 'pending' }),
      testMemory({ content, projectKey: OTHER_PROJECT }),
      testMemory({ content, tainted: true, origin: 'agent_tainted' }),
      shown,
    ];
    const recall = selectPromptRecall({
      candidates: refused.map((m) => candidate(m, 0.99)),
      target: { ...target, alreadyInjected: new Set([shown.id]) },
    });
    expect(recall).toEqual({ chosen: [], best: 0, withheld: refused.map((m) => m.id) });
  });

  it('keeps at most MAX_PROMPT_ITEMS in full and MAX_INDEX_ITEMS as index, a repeat once', () => {
    const many = Array.from({ length: 12 }, (_, i) => testMemory({ content: `note ${i}` }));
    const { full, index } = RELEVANCE_TIERS.lexical;
    const recall = selectPromptRecall({
      candidates: [
        candidate(many[0]!, 0.99),
        candidate(many[0]!, 0.99),
        ...many.slice(1, 6).map((m) => candidate(m, 0.99)),
        ...many.slice(6).map((m) => candidate(m, (full + index) / 2)),
      ],
      target,
    });
    const tiers = recall.chosen.map((c) => c.tier);
    expect(tiers.filter((t) => t === 'full')).toHaveLength(MAX_PROMPT_ITEMS);
    expect(tiers.filter((t) => t === 'index')).toHaveLength(MAX_INDEX_ITEMS);
    expect(new Set(recall.chosen.map((c) => c.memory.id)).size).toBe(recall.chosen.length);
  });
});

describe('indexText', () => {
  it('keeps the first words on one line and marks a cut', () => {
    expect(indexText('one  two\nthree')).toBe('one two three');
    expect(indexText('a b c d e', 3)).toBe('a b c …');
  });
});

describe('hasTopic', () => {
  it('is false for assent and politeness, true for a real question', () => {
    expect(['yes', 'ok, go ahead', 'thanks!', '', '   '].map(hasTopic)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(hasTopic('how do we deploy?')).toBe(true);
  });
});
