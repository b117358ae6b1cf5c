/**
 * The committed long-coding-memory benchmark (bench/datasets/long-coding-memories.json) is what
 * docs/benchmarks.md says it is: projects whose memories are 100–400-word working notes (decisions with
 * their context, postmortems, runbooks, debugging write-ups), asked about in words other than theirs.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { parseDataset } from '../../bench/retrieval/dataset.js';
import { wordCount } from '../../bench/retrieval/long-turns.js';
import { analyzeQuery, analyzeText } from '../../src/core/text/analyze.js';
import { expectEvidenceInOwnProject } from './dataset-shape.js';

const dataset = parseDataset(
  JSON.parse(
    readFileSync(
      new URL('../../bench/datasets/long-coding-memories.json', import.meta.url),
      'utf8',
    ),
  ),
);
const turns = dataset.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns));
const questions = dataset.conversations.flatMap((c) => c.questions);

describe('the long-coding-memory benchmark', () => {
  it('holds projects of 12 or more memories, each 100 to 400 words, of the kinds mnemo stores', () => {
    expect(dataset.conversations.length).toBeGreaterThanOrEqual(3);
    for (const conversation of dataset.conversations) {
      const own = conversation.sessions.flatMap((s) => s.turns);
      expect(own.length, conversation.id).toBeGreaterThanOrEqual(12);
    }
    for (const turn of turns) {
      expect(wordCount(turn.text), turn.id).toBeGreaterThanOrEqual(100);
      expect(wordCount(turn.text), turn.id).toBeLessThanOrEqual(400);
    }
    const kinds = new Set(turns.map((t) => t.speaker));
    for (const kind of ['decision', 'fix', 'preference']) expect(kinds).toContain(kind);
  });

  it('asks questions of every category, each naming memories of its own project', () => {
    expect(questions.length).toBeGreaterThanOrEqual(60);
    expect(new Set(questions.map((q) => q.category))).toEqual(new Set(['1', '2', '3', '4', '5']));
    expectEvidenceInOwnProject(dataset);
  });

  // A paragraph holds many of any question's words, so the bar is lower than the one-line set's (where
  // most questions share no term at all): most questions bring a quarter or more of terms of their own.
  it('words most questions partly in terms the memory they expect does not use', () => {
    const textOf = new Map(turns.map((t) => [t.id, t.text]));
    const paraphrased = questions.filter((q) => {
      const asked = [...new Set(analyzeQuery(q.question))];
      const held = new Set(q.evidence.flatMap((id) => analyzeText(textOf.get(id) ?? '')));
      return asked.filter((term) => held.has(term)).length <= asked.length * 0.75;
    });
    expect(paraphrased.length / questions.length).toBeGreaterThan(0.5);
  });
});
