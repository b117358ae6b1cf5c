import { describe, expect, it } from 'vitest';

import { OTHER_PROJECT, PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import { hasTopic, MAX_PROMPT_ITEMS, selectPromptRecall } from './prompt-recall.js';
import { PROMPT_RELEVANCE_THRESHOLD } from './prompt-relevance.js';

const target = { projectKey: PROJECT, alreadyInjected: new Set<string>() };
const PROMPT = 'Why does GET /orders return 500 after the migration?';

describe('selectPromptRecall', () => {
  it('chooses the eligible candidates that clear the threshold, in candidate order', () => {
    const error = testMemory({
      kind: 'error',
      content: 'GET /orders returned 500 after the migration: column orders.status was missing.',
    });
    const fix = testMemory({
      kind: 'fix',
      content: 'Fixed the /orders 500 by running the pending migration on staging.',
    });
    const unrelated = testMemory({ content: 'We deploy with just deploy <env>.' });
    const recall = selectPromptRecall({
      prompt: PROMPT,
      candidates: [fix, unrelated, error],
      target,
    });
    expect(recall.chosen.map((c) => c.memory.id)).toEqual([fix.id, error.id]);
    expect(recall.chosen.every((c) => c.relevance.score >= PROMPT_RELEVANCE_THRESHOLD)).toBe(true);
    expect(recall.best).toBe(Math.max(...recall.chosen.map((c) => c.relevance.score)));
  });

  it('injects nothing when the best match is below the threshold', () => {
    const weak = testMemory({
      content:
        'Checkpoint: cart refactor, invoices, tax tables, PDF renderer; a migration is pending.',
    });
    const recall = selectPromptRecall({ prompt: PROMPT, candidates: [weak], target });
    expect(recall.chosen).toEqual([]);
    expect(recall.best).toBeGreaterThan(0);
    expect(recall.best).toBeLessThan(PROMPT_RELEVANCE_THRESHOLD);
  });

  it('never scores a network, quarantined, out-of-scope or already injected memory', () => {
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
      prompt: PROMPT,
      candidates: refused,
      target: { ...target, alreadyInjected: new Set([shown.id]) },
    });
    expect(recall).toEqual({ chosen: [], best: 0, withheld: refused.map((m) => m.id) });
  });

  it('keeps at most MAX_PROMPT_ITEMS and lists a repeated candidate once', () => {
    const same = Array.from({ length: 6 }, (_, i) =>
      testMemory({ content: `GET /orders 500 after the migration, case ${i}` }),
    );
    const recall = selectPromptRecall({
      prompt: PROMPT,
      candidates: [same[0]!, same[0]!, ...same.slice(1)],
      target,
    });
    expect(recall.chosen.map((c) => c.memory.id)).toEqual(
      same.slice(0, MAX_PROMPT_ITEMS).map((m) => m.id),
    );
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
