import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { openRawSqlite } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { ManualClock } from '../contract/fixtures.js';
import { CLAIM_PRUNE_BATCH } from '../session-rules.js';
import { openSqliteStore } from './open-sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-sqlite-sessions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 24 * 60 * 60 * 1000;

function claimCount(path: string): number {
  const db = openRawSqlite(path);
  try {
    return db.prepare('SELECT count(*) FROM remember_claims').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('remember claim pruning', () => {
  it('drops claims older than a day, a bounded batch per claim write', async () => {
    const path = join(dir, 'prune', 'mnemo.db');
    const clock = new ManualClock('2025-05-01T08:00:00.000Z');
    const store = await openSqliteStore({ path, clock });
    const stale = CLAIM_PRUNE_BATCH * 2 + 50;
    for (let i = 0; i < stale; i += 1) {
      await store.recordRememberClaim({
        sessionId: `s${i}`,
        contentHash: 'a'.repeat(64),
        toolUseId: null,
      });
    }
    clock.advance(DAY + 1);
    await store.recordRememberClaim({
      sessionId: 'fresh',
      contentHash: 'b'.repeat(64),
      toolUseId: null,
    });
    expect(claimCount(path)).toBe(stale - CLAIM_PRUNE_BATCH + 1);
    // A window longer than the retention cannot reach a stale claim, pruned yet or not.
    expect(await store.takeRememberClaim('a'.repeat(64), 7 * DAY)).toBeUndefined();
    expect(claimCount(path)).toBe(stale - 2 * CLAIM_PRUNE_BATCH + 1);
    expect(await store.takeRememberClaim('b'.repeat(64), 7 * DAY)).toMatchObject({
      sessionId: 'fresh',
    });
    expect(claimCount(path)).toBe(0);
    await store.close();
  });

  it('keeps claims younger than a day', async () => {
    const path = join(dir, 'keep', 'mnemo.db');
    const clock = new ManualClock('2025-05-01T08:00:00.000Z');
    const store = await openSqliteStore({ path, clock });
    await store.recordRememberClaim({
      sessionId: 's',
      contentHash: 'a'.repeat(64),
      toolUseId: 't',
    });
    clock.advance(DAY - 1);
    await store.recordRememberClaim({
      sessionId: 's',
      contentHash: 'b'.repeat(64),
      toolUseId: 't',
    });
    expect(claimCount(path)).toBe(2);
    expect(await store.takeRememberClaim('a'.repeat(64), DAY)).toMatchObject({ toolUseId: 't' });
    await store.close();
  });
});
