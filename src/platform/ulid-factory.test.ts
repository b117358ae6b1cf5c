import { describe, expect, it } from 'vitest';

import { newUlidFactory } from './ulid-factory.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('newUlidFactory', () => {
  it('makes well-formed ULIDs that increase within one millisecond', () => {
    const next = newUlidFactory();
    const ids = Array.from({ length: 200 }, () => next(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(ULID);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives two factories different random parts for the same time', () => {
    const a = newUlidFactory()(1_700_000_000_000);
    const b = newUlidFactory()(1_700_000_000_000);
    expect(a.slice(0, 10)).toBe(b.slice(0, 10));
    expect(a.slice(10)).not.toBe(b.slice(10));
  });
});
