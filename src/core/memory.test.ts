import { describe, expect, it } from 'vitest';

import { isMemoryError } from './errors.js';
import { validateNewMemory } from './memory.js';

describe('validateNewMemory', () => {
  it('starts a new memory cold: heat comes only from genuine use', () => {
    // A non-zero start acts as a second recency term and reorders close ranks (docs/benchmarks.md).
    expect(validateNewMemory({ content: 'use pnpm', projectKey: '/p' }).heatBase).toBe(0);
  });

  it('fills the fail-closed defaults of the write-path fields', () => {
    const memory = validateNewMemory({ content: 'use pnpm', projectKey: '/p' });
    expect(memory).toMatchObject({
      origin: 'unknown',
      visibility: 'project',
      kind: 'note',
      pinned: false,
      tainted: false,
      redactions: 0,
    });
  });

  it('decides team visibility from the origin and visibility when the writer leaves it out', () => {
    const of = (origin: string, visibility: 'project' | 'global' = 'project') =>
      validateNewMemory({ content: 'use pnpm', projectKey: '/p', origin, visibility }).teamVisible;
    expect(of('user')).toBe(true);
    expect(of('local_edit')).toBe(true);
    expect(of('user', 'global')).toBe(false);
    // Origins held for review, and an origin nobody knows, are shared with nobody (fail closed).
    expect(of('network')).toBe(false);
    expect(of('unknown')).toBe(false);
    expect(
      validateNewMemory({ content: 'x', projectKey: '/p', origin: 'user', teamVisible: false })
        .teamVisible,
    ).toBe(false);
  });

  it('refuses a negative or non-finite heat with INVALID_INPUT', () => {
    for (const heatBase of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        validateNewMemory({ content: 'x', projectKey: '/p', heatBase });
      } catch (caught) {
        error = caught;
      }
      expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    }
  });
});
