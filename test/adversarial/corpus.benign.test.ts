/**
 * Category J, the benign twins: each is paired to an attack (`twin_of`) and must be treated as a normal
 * event. A twin that misses its expectations is a false positive; the gate allows at most 2% of them.
 */
import { describe, expect, it } from 'vitest';

import { useTestHomes } from '../helpers/mnemo-bin.js';
import { loadCorpus, mismatches, runCase } from './corpus-runner.js';

const newHome = useTestHomes();
const twins = loadCorpus('j-benign-twins.jsonl');
const attacks = new Set(
  ['a-channel.jsonl', 'b-cues.jsonl', 'c-secrets.jsonl', 'h-volume.jsonl'].flatMap((file) =>
    loadCorpus(file).map((c) => c.id),
  ),
);
const falsePositives = new Map<string, string[]>();

describe('adversarial corpus j-benign-twins.jsonl', () => {
  it('pairs every twin with an attack case', () => {
    expect(
      twins.filter((t) => t.twin_of === null || !attacks.has(t.twin_of)).map((t) => t.id),
    ).toEqual([]);
  });

  it.each(twins.map((t) => [t.id, t] as const))(
    '%s runs (recorded for the false-positive rate)',
    async (_id, twin) => {
      const observed = await runCase(newHome(), twin, { detectors: 'on' });
      const missed = mismatches(twin, observed);
      if (missed.length > 0) falsePositives.set(twin.id, missed);
    },
    600_000,
  );

  it('keeps the benign false-positive rate at or below 2%', () => {
    const rate = falsePositives.size / twins.length;
    console.log(
      `benign twins: ${twins.length}, false positives: ${falsePositives.size} (${(rate * 100).toFixed(1)}%)`,
    );
    expect(Object.fromEntries(falsePositives)).toEqual(
      rate <= 0.02 ? Object.fromEntries(falsePositives) : {},
    );
    expect(rate).toBeLessThanOrEqual(0.02);
  });
});
