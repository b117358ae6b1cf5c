import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { isMemoryError } from '../../core/errors.js';
import { ManualClock } from '../contract/fixtures.js';
import { LEXICAL_INDEX_VERSION } from '../lexical-rules.js';
import { INLINE_REBUILD_MAX_ROWS } from '../lexical-rules.js';
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

describe('rebuilding the lexical index on open', () => {
  const staleStore = async (
    name: string,
    memories: number,
  ): Promise<{ path: string; earlier: number }> => {
    const path = join(dir, name, 'mnemo.db');
    const store = await openSqliteStore({ path });
    for (let i = 0; i < memories; i += 1) {
      await store.remember({
        content: `Turn ${i} about the deploy`,
        projectKey: 'mine',
        origin: 'local_exec',
        sessionId: `s-${Math.floor(i / 50)}`,
      });
    }
    await store.close();
    // As an earlier context rule left it: another index version and contexts of another shape.
    const db = new Database(path);
    db.prepare("UPDATE lexical_state SET analyzer = 'porter2-v1+ctx-earlier' WHERE id = 1").run();
    const { changes } = db
      .prepare("UPDATE memories SET context = 'earlier' WHERE context != ''")
      .run();
    db.close();
    return { path, earlier: changes };
  };
  const indexState = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return {
        analyzer: (db.prepare('SELECT analyzer FROM lexical_state').get() as { analyzer: string })
          .analyzer,
        earlier: (
          db.prepare("SELECT count(*) AS n FROM memories WHERE context = 'earlier'").get() as {
            n: number;
          }
        ).n,
      };
    } finally {
      db.close();
    }
  };

  it(`leaves a rebuild over more than ${INLINE_REBUILD_MAX_ROWS} memories to a process without a deadline`, async () => {
    const { path, earlier } = await staleStore('large', INLINE_REBUILD_MAX_ROWS + 1);
    expect(earlier).toBeGreaterThan(INLINE_REBUILD_MAX_ROWS - 50);
    const deferred = await openSqliteStore({ path, deferLongRebuild: true }).catch(
      (error: unknown) => error,
    );
    expect(isMemoryError(deferred, 'STORE_BUSY')).toBe(true);
    expect((deferred as Error).message).toMatch(/must be rebuilt.*mnemo doctor/);
    expect(indexState(path)).toEqual({
      analyzer: 'porter2-v1+ctx-earlier',
      earlier,
    });
    const store = await openSqliteStore({ path });
    expect(indexState(path)).toEqual({ analyzer: LEXICAL_INDEX_VERSION, earlier: 0 });
    expect((await store.searchLexical('deploy', { limit: 3 })).length).toBe(3);
    await store.close();
    // Once rebuilt, the deadline-bound open goes through.
    await (await openSqliteStore({ path, deferLongRebuild: true })).close();
  });

  it('rebuilds a small store on open even for a process with a deadline', async () => {
    const { path } = await staleStore('small', 60);
    const store = await openSqliteStore({ path, deferLongRebuild: true });
    expect(indexState(path)).toEqual({ analyzer: LEXICAL_INDEX_VERSION, earlier: 0 });
    await store.close();
  });
});
