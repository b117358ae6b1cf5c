import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  LAST_MEMORY_AGE_MS,
  MEMORY_SPACING_MS,
  NEGATIVES_FORMAT,
  parseNegatives,
  projectsOf,
  roundRobin,
  stratifiedConversations,
  stratifiedQuestions,
} from '../../bench/inject/corpus.js';
import { payloadFrom, transcriptFolder } from '../../bench/inject/payloads.js';
import {
  type BenchDataset,
  DATASET_FORMAT,
  parseDataset,
  selectConversations,
} from '../../bench/retrieval/dataset.js';

const dataset: BenchDataset = parseDataset({
  format: DATASET_FORMAT,
  name: 'tiny',
  categories: [
    { id: '1', name: 'a' },
    { id: '2', name: 'b' },
  ],
  conversations: [
    {
      id: 'p1',
      sessions: [
        {
          id: 's1',
          startedAt: '2025-01-01T00:00:00.000Z',
          dateText: '1 January 2025',
          turns: [
            { id: 't1', speaker: 'decision', text: 'Use pnpm.' },
            { id: 't2', speaker: 'Alice', text: 'Hello there.' },
          ],
        },
        {
          id: 's2',
          startedAt: '2025-01-03T00:00:00.000Z',
          dateText: '3 January 2025',
          turns: [{ id: 't3', speaker: 'preference', text: 'Small PRs.' }],
        },
      ],
      questions: [{ id: 'q1', question: 'Which manager?', category: '1', evidence: ['t1'] }],
    },
  ],
});

describe('projectsOf', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it('coding style: the text as written, the speaker as kind (a non-kind speaker is a note)', () => {
    const [project] = projectsOf(dataset, 'coding', now);
    expect(project!.memories.map((m) => [m.turnId, m.kind, m.text])).toEqual([
      ['t1', 'decision', 'Use pnpm.'],
      ['t2', 'note', 'Hello there.'],
      ['t3', 'preference', 'Small PRs.'],
    ]);
    expect(project!.questions.map((q) => q.id)).toEqual(['q1']);
  });

  it('dialog style: date and speaker prefixed, every memory a note', () => {
    const [project] = projectsOf(dataset, 'dialog', now);
    expect(project!.memories.map((m) => [m.kind, m.text])).toEqual([
      ['note', '[1 January 2025] decision: Use pnpm.'],
      ['note', '[1 January 2025] Alice: Hello there.'],
      ['note', '[3 January 2025] preference: Small PRs.'],
    ]);
  });

  it("names each memory's dataset session, for writers that pass one", () => {
    const [project] = projectsOf(dataset, 'dialog', now);
    expect(project!.memories.map((m) => m.sessionId)).toEqual(['p1/s1', 'p1/s1', 'p1/s2']);
  });

  it('keeps the spacing of the dates and puts the newest memory a day before now', () => {
    const [project] = projectsOf(dataset, 'coding', now);
    const at = project!.memories.map((m) => m.at);
    expect(at[2]).toBe(now - LAST_MEMORY_AGE_MS);
    expect(at[1]! - at[0]!).toBe(MEMORY_SPACING_MS);
    expect(at[2]! - at[0]!).toBe(2 * 86_400_000);
  });
});

describe('stratifiedQuestions', () => {
  const qs = ['1', '1', '1', '2', '1', '2'].map((category, i) => ({
    id: `q${i}`,
    question: `question ${i}`,
    answer: null,
    category,
    evidence: ['t1'],
  }));

  it('takes categories round-robin up to the limit and returns them in dataset order', () => {
    expect(stratifiedQuestions(qs, ['1', '2'], 3).map((q) => q.id)).toEqual(['q0', 'q1', 'q3']);
    expect(stratifiedQuestions(qs, ['2', '1'], 2).map((q) => q.id)).toEqual(['q0', 'q3']);
  });

  it('stops when every category is used up', () => {
    expect(stratifiedQuestions(qs, ['1', '2'], 99)).toHaveLength(6);
  });
});

describe('selectConversations', () => {
  it('reads ranges and lists, sorted and once each; all without a spec', () => {
    expect(selectConversations('5-7,0,6', 10)).toEqual([0, 5, 6, 7]);
    expect(selectConversations(undefined, 3)).toEqual([0, 1, 2]);
  });

  it('refuses a conversation the dataset does not have', () => {
    expect(() => selectConversations('0-3', 3)).toThrow('No conversation 3.');
  });
});

describe('stratifiedConversations', () => {
  it('gives the chosen conversations their stratified questions, and refuses a missing one', () => {
    const [only] = stratifiedConversations(dataset, [0], 5, ['1', '2']);
    expect(only?.id).toBe('p1');
    expect(only?.questions.map((q) => q.id)).toEqual(['q1']);
    expect(stratifiedConversations(dataset, [0], 0, ['1'])[0]?.questions).toEqual([]);
    expect(() => stratifiedConversations(dataset, [1], 5, ['1'])).toThrow(
      'tiny has no conversation 1.',
    );
  });
});

describe('parseNegatives', () => {
  const valid = {
    format: NEGATIVES_FORMAT,
    foreign: { id: 'billing', memories: [{ id: 'm1', kind: 'decision', text: 'Use SQS.' }] },
    prompts: [
      { id: 'c1', kind: 'chit-chat', prompt: 'Good morning!' },
      { id: 'f1', kind: 'foreign', prompt: 'Which queue?', evidence: ['m1'] },
    ],
  };

  it('accepts a valid file', () => {
    const set = parseNegatives(valid);
    expect(set.foreign.memories).toEqual([{ id: 'm1', kind: 'decision', text: 'Use SQS.' }]);
    expect(set.prompts.map((p) => [p.id, p.kind, p.evidence])).toEqual([
      ['c1', 'chit-chat', []],
      ['f1', 'foreign', ['m1']],
    ]);
  });

  it('refuses a wrong format, an unknown kind, a duplicate id and foreign prompts without evidence', () => {
    expect(() => parseNegatives({ ...valid, format: 'x' })).toThrow(/format/);
    expect(() =>
      parseNegatives({ ...valid, prompts: [{ id: 'x', kind: 'rant', prompt: 'x' }] }),
    ).toThrow(/kind/);
    expect(() =>
      parseNegatives({ ...valid, prompts: [valid.prompts[0], valid.prompts[0]] }),
    ).toThrow(/not unique/);
    expect(() =>
      parseNegatives({ ...valid, prompts: [{ id: 'f', kind: 'foreign', prompt: 'x' }] }),
    ).toThrow(/evidence/);
    expect(() =>
      parseNegatives({
        ...valid,
        prompts: [{ id: 'f', kind: 'foreign', prompt: 'x', evidence: ['nope'] }],
      }),
    ).toThrow(/unknown foreign memory/);
  });
});

describe('roundRobin', () => {
  it('asks prompt i in project i mod n', () => {
    expect(roundRobin(['a', 'b', 'c'], ['x', 'y'])).toEqual([
      ['a', 'x'],
      ['b', 'y'],
      ['c', 'x'],
    ]);
    expect(() => roundRobin(['a'], [])).toThrow();
  });
});

describe('payloadFrom', () => {
  const template = JSON.parse(
    readFileSync(new URL('../fixtures/hooks/user-prompt-submit.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

  it('moves a recorded payload to the repository, with a new session and the transcript path to match', () => {
    const payload = payloadFrom(template, {
      cwd: '/tmp/bench/repos/acme-api',
      sessionId: 'abc',
      patch: { prompt: 'Which package manager?' },
    });
    expect(payload).toMatchObject({
      cwd: '/tmp/bench/repos/acme-api',
      session_id: 'abc',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Which package manager?',
      transcript_path: '/home/dev/.claude/projects/-tmp-bench-repos-acme-api/abc.jsonl',
    });
    expect(transcriptFolder('/a/b.c')).toBe('-a-b-c');
  });
});

describe('bench/datasets/negative-prompts.json', () => {
  const set = parseNegatives(
    JSON.parse(
      readFileSync(new URL('../../bench/datasets/negative-prompts.json', import.meta.url), 'utf8'),
    ),
  );

  it('holds at least 200 prompts of every kind, foreign ones answered by the foreign project', () => {
    expect(set.prompts.length).toBeGreaterThanOrEqual(200);
    const kinds = new Map<string, number>();
    for (const p of set.prompts) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual(['chit-chat', 'foreign', 'generic']);
    for (const count of kinds.values()) expect(count).toBeGreaterThanOrEqual(50);
    const foreignIds = new Set(set.foreign.memories.map((m) => m.id));
    const asked = new Set(set.prompts.flatMap((p) => p.evidence));
    // Every foreign memory is asked about, so the control run covers the whole project.
    expect([...foreignIds].filter((id) => !asked.has(id))).toEqual([]);
  });

  it('never repeats a prompt text', () => {
    const texts = set.prompts.map((p) => p.prompt.toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });
});
