/** Checks shared by the tests of the committed benchmark datasets. */
import { expect } from 'vitest';

import type { BenchDataset } from '../../bench/retrieval/dataset.js';

/** Every question names at least one memory, and each one it names is a memory of its own project. */
export function expectEvidenceInOwnProject(dataset: BenchDataset): void {
  for (const conversation of dataset.conversations) {
    const ids = new Set(conversation.sessions.flatMap((s) => s.turns.map((t) => t.id)));
    for (const question of conversation.questions) {
      expect(question.evidence.length).toBeGreaterThan(0);
      for (const id of question.evidence) expect(ids.has(id), `${question.id} → ${id}`).toBe(true);
    }
  }
}
