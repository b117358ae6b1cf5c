import { describe, expect, it, vi } from 'vitest';

import type * as errors from './errors.js';
import { isMemoryError, MemoryError } from './errors.js';

/** A second instance of this module, as a hook bundle and its direct-path chunk each hold one. */
async function otherCopy(): Promise<typeof errors> {
  vi.resetModules();
  return import('./errors.js');
}

describe('MemoryError', () => {
  // A hook bundle and the direct-path chunk it loads each carry a copy of this module
  // (scripts/bundle-hooks.mjs): a busy store in the chunk must still be spooled by the bundle.
  it('is recognised across copies of its module, with its code', async () => {
    const copy = await otherCopy();
    expect(copy.MemoryError).not.toBe(MemoryError);
    const other = new copy.MemoryError('STORE_BUSY', 'the store is busy');
    expect(other instanceof MemoryError).toBe(true);
    expect(isMemoryError(other, 'STORE_BUSY')).toBe(true);
    expect(isMemoryError(other, 'STORE_UNAVAILABLE')).toBe(false);
    expect(copy.isMemoryError(new MemoryError('NOT_FOUND', 'x'), 'NOT_FOUND')).toBe(true);
  });

  it('recognises nothing else: plain errors, look-alike objects, primitives', () => {
    const lookAlike = Object.assign(new Error('busy'), { name: 'MemoryError', code: 'STORE_BUSY' });
    for (const value of [lookAlike, { code: 'STORE_BUSY' }, 'STORE_BUSY', null, undefined]) {
      expect(isMemoryError(value)).toBe(false);
      expect(value instanceof MemoryError).toBe(false);
    }
  });

  it('keeps its own properties as they were (the mark is on the prototype)', () => {
    const error = new MemoryError('CONFLICT', 'taken', { details: { id: 'm1' } });
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(error).toMatchObject({ name: 'MemoryError', code: 'CONFLICT', details: { id: 'm1' } });
  });
});
