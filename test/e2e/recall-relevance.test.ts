/**
 * `mnemo recall` shows each hit's calibrated relevance (core/ranking/relevance.ts), not a rank-derived
 * number, and says so when nothing clears the floor a session's injection uses. Built binary, real store.
 */
import { describe, expect, it } from 'vitest';

import { useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

interface Shown {
  content: string;
  relevance: number;
}

/** The hits of the terminal listing, in order: a header line with `relevance x.xx`, then the text. */
function shownHits(stdout: string): Shown[] {
  const lines = stdout.split('\n');
  const hits: Shown[] = [];
  lines.forEach((line, i) => {
    const relevance = /relevance (\d\.\d\d)/u.exec(line)?.[1];
    if (relevance !== undefined)
      hits.push({ relevance: Number(relevance), content: (lines[i + 1] ?? '').trim() });
  });
  return hits;
}

const FLOOR_NOTE = /None of these clears the relevance floor \((0\.\d+)\)/u;

describe('mnemo recall relevance (built binary)', () => {
  it('shows the calibrated relevance, and says when no hit clears the injection floor', async () => {
    const home = newHome();
    await home.run(['remember', 'We use pnpm, not npm, for every script in this repository']);
    await home.run([
      'remember',
      'The staging database is rebuilt every night from the production snapshot',
    ]);

    const answered = await home.run(['recall', 'which package manager']);
    const answeredHits = shownHits(answered.stdout);
    expect(answeredHits.map((hit) => hit.content)).toEqual([
      'We use pnpm, not npm, for every script in this repository',
      'The staging database is rebuilt every night from the production snapshot',
    ]);
    // Not a rank-derived number: the unrelated second hit is near 0, not a share of the first.
    expect(answeredHits[0]!.relevance).toBeGreaterThan(answeredHits[1]!.relevance * 5);
    expect(answered.stdout).not.toMatch(FLOOR_NOTE);

    const unrelated = await home.run([
      'recall',
      'how should I tune the garbage collector pauses for this repository',
    ]);
    const note = FLOOR_NOTE.exec(unrelated.stdout);
    expect(note).not.toBeNull();
    const floor = Number(note![1]);
    const unrelatedHits = shownHits(unrelated.stdout);
    expect(unrelatedHits.length).toBeGreaterThan(0);
    for (const hit of unrelatedHits) expect(hit.relevance).toBeLessThan(floor);
    expect(answeredHits[0]!.relevance).toBeGreaterThanOrEqual(floor);
  });
});
