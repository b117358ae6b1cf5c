import { describe, expect, it } from 'vitest';

import { type BenchTurn, DATASET_FORMAT, parseDataset } from '../../bench/retrieval/dataset.js';
import { chunkTurns, longTurnDataset, mergedId } from '../../bench/retrieval/long-turns.js';
import { turnLine } from '../../bench/retrieval/memory-text.js';

/** A turn of `words` words in all, counting its `Speaker:` prefix as one. */
function turn(id: string, words: number, speaker = 'Ann'): BenchTurn {
  return { id, speaker, text: Array.from({ length: words - 1 }, (_, i) => `w${i}`).join(' ') };
}
const wordsOf = (turns: BenchTurn[]) =>
  turns.reduce((s, t) => s + turnLine(t).split(/\s+/).length, 0);

describe('chunkTurns', () => {
  const limits = { min: 10, max: 20 };

  it('closes a chunk once it reaches min words', () => {
    const chunks = chunkTurns([turn('a', 6), turn('b', 6), turn('c', 6), turn('d', 6)], limits);
    expect(chunks.map((c) => c.map((t) => t.id))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('never grows a chunk past max words: closes before the turn that would overflow', () => {
    const chunks = chunkTurns([turn('a', 8), turn('b', 15), turn('c', 9)], limits);
    expect(chunks.map((c) => c.map((t) => t.id))).toEqual([['a'], ['b'], ['c']]);
    for (const chunk of chunks) expect(wordsOf(chunk)).toBeLessThanOrEqual(limits.max);
  });

  it('joins a short tail to the chunk before when both fit, else keeps it alone', () => {
    expect(
      chunkTurns([turn('a', 12), turn('b', 4)], limits).map((c) => c.map((t) => t.id)),
    ).toEqual([['a', 'b']]);
    expect(
      chunkTurns([turn('a', 18), turn('b', 4)], limits).map((c) => c.map((t) => t.id)),
    ).toEqual([['a'], ['b']]);
  });

  it('keeps every turn once, in order', () => {
    const turns = Array.from({ length: 40 }, (_, i) => turn(`t${i}`, 1 + ((i * 7) % 13)));
    expect(chunkTurns(turns, limits).flat()).toEqual(turns);
  });
});

describe('longTurnDataset', () => {
  const dataset = parseDataset({
    format: DATASET_FORMAT,
    name: 'tiny',
    categories: [{ id: '1', name: 'a' }],
    conversations: [
      {
        id: 'c1',
        sessions: [
          {
            id: 's1',
            startedAt: '2023-05-08T13:56:00.000Z',
            dateText: '8 May, 2023',
            turns: [
              { id: 'D1:1', speaker: 'Ann', text: 'I adopted a dog.', caption: 'a dog' },
              { id: 'D1:2', speaker: 'Bo', text: 'Lovely!', caption: 'a cat' },
              { id: 'D1:3', speaker: 'Ann', text: 'He is called Rex and he is a pointer.' },
            ],
          },
        ],
        questions: [{ id: 'q1', question: 'Dog name?', category: '1', evidence: ['D1:3', 'D1:1'] }],
      },
    ],
  });

  it('merges a session into one memory that keeps the dialog as lines and maps evidence to it', () => {
    const { dataset: long, report } = longTurnDataset(dataset, { min: 100, max: 400 });
    const [session] = long.conversations[0]!.sessions;
    expect(session!.turns).toEqual([
      {
        id: 'D1:1..D1:3',
        speaker: 'Ann',
        text: 'I adopted a dog. [shares a photo: a dog]\nBo: Lovely! [shares a photo: a cat]\nAnn: He is called Rex and he is a pointer.',
      },
    ]);
    expect(long.conversations[0]!.questions[0]!.evidence).toEqual(['D1:1..D1:3']);
    expect(report).toMatchObject({ memories: 1, outOfRange: 1, sourceTurns: 3 });
    // Still a valid dataset: the evidence names existing turns.
    expect(() => parseDataset(long)).not.toThrow();
  });

  it('maps evidence in different chunks to each chunk once', () => {
    const { dataset: long } = longTurnDataset(dataset, { min: 12, max: 20 });
    const ids = long.conversations[0]!.sessions[0]!.turns.map((t) => t.id);
    expect(ids).toEqual(['D1:1..D1:2', 'D1:3']);
    expect(long.conversations[0]!.questions[0]!.evidence).toEqual(['D1:3', 'D1:1..D1:2']);
  });

  it('names a merged turn by its first and last ids', () => {
    expect(mergedId([turn('D2:1', 3)])).toBe('D2:1');
    expect(mergedId([turn('D2:1', 3), turn('D2:2', 3)])).toBe('D2:1..D2:2');
  });
});
