import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ManualClock } from '../contract/fixtures.js';
import type { MemoryStore } from '../store.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { rankedLexicalWindow } from './sqlite-search.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-lexical-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POOL = 4;
const mine = { projectKey: 'mine', includeGlobal: false };

async function storeWith(
  name: string,
  others: number,
  own: number,
): Promise<{ store: MemoryStore; ownIds: string[] }> {
  const store = await openSqliteStore({
    path: join(dir, name, 'mnemo.db'),
    clock: new ManualClock('2025-05-01T08:00:00.000Z'),
  });
  // Another project's memories say "flaky" three times: the index ranks every one of them first.
  for (let i = 0; i < others; i += 1) {
    await store.remember({
      content: `flaky flaky flaky test ${i}`,
      projectKey: 'theirs',
      origin: 'user',
    });
  }
  const ownIds: string[] = [];
  for (let i = 0; i < own; i += 1) {
    const { memory } = await store.remember({
      content: `The upload test is flaky on CI runners, note ${i}, see the retry wrapper in the job config`,
      projectKey: 'mine',
      origin: 'user',
    });
    ownIds.push(memory.id);
  }
  return { store, ownIds };
}

describe('SQLite lexical candidates', () => {
  it('finds the in-scope matches when more than the ranked window of better matches are filtered out', async () => {
    const window = rankedLexicalWindow(POOL);
    const { store, ownIds } = await storeWith('crowded', window + 10, 3);
    try {
      const hits = await store.searchLexical('flaky', { scope: mine, limit: POOL, pool: POOL });
      expect(hits.map((h) => h.id).sort()).toEqual([...ownIds].sort());
    } finally {
      await store.close();
    }
  });

  it('returns the same hits from the ranked window as from ranking every match', async () => {
    // One project holds everything, so the window's first rows survive the filter: the fast path.
    const { store, ownIds } = await storeWith('single', 0, POOL * 6);
    try {
      const windowed = await store.searchLexical('flaky upload', {
        scope: mine,
        limit: POOL,
        pool: POOL,
      });
      const wide = await store.searchLexical('flaky upload', {
        scope: mine,
        limit: POOL,
        pool: ownIds.length,
      });
      expect(windowed).toHaveLength(POOL);
      expect(windowed.map((h) => h.id)).toEqual(wide.slice(0, POOL).map((h) => h.id));
    } finally {
      await store.close();
    }
  });
});
