/**
 * The committed coding-memory benchmark (bench/datasets/coding-memories.json) is what docs/benchmarks.md
 * says it is: a valid generic-format dataset of the kinds of memory mnemo stores, across several
 * projects, with questions that mostly do not share the words of the memory they expect.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { parseDataset } from '../../bench/retrieval/dataset.js';
import { analyzeQuery, analyzeText } from '../../src/core/text/analyze.js';
import { expectEvidenceInOwnProject } from './dataset-shape.js';

const dataset = parseDataset(
  JSON.parse(
    readFileSync(new URL('../../bench/datasets/coding-memories.json', import.meta.url), 'utf8'),
  ),
);
const turns = dataset.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns));
const questions = dataset.conversations.flatMap((c) => c.questions);

describe('the coding-memory benchmark', () => {
  it('holds at least 300 memories of every kind mnemo stores, in several projects', () => {
    expect(turns.length).toBeGreaterThanOrEqual(300);
    expect(dataset.conversations.length).toBeGreaterThanOrEqual(3);
    const kinds = new Set(turns.map((t) => t.speaker));
    for (const kind of ['decision', 'fix', 'error', 'preference', 'checkpoint', 'note']) {
      expect(kinds).toContain(kind);
    }
  });

  it('asks at least 150 questions, each naming memories of its own project', () => {
    expect(questions.length).toBeGreaterThanOrEqual(150);
    expectEvidenceInOwnProject(dataset);
  });

  it('words most questions without any analysed term of the memory they expect', () => {
    const textOf = new Map(turns.map((t) => [t.id, t.text]));
    const disjoint = questions.filter((q) => {
      const asked = new Set(analyzeQuery(q.question));
      return q.evidence.every((id) =>
        analyzeText(textOf.get(id) ?? '').every((term) => !asked.has(term)),
      );
    });
    expect(disjoint.length / questions.length).toBeGreaterThan(0.5);
  });
});
