/**
 * Backups and restore of the SQLite store against real files: the daily copy is taken once a day,
 * checked before rotation and rotated to KEEP_BACKUPS; a damaged store never rotates a good copy away;
 * restore picks the newest good copy, refuses a bad one, and keeps the replaced file (and its WAL)
 * aside byte for byte.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { damagePages } from '../../../test/helpers/damage-store.js';
import { useTempDirs } from '../../../test/helpers/temp-dir.js';
import { isMemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { MemoryStore } from '../store.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { checkBackup, takeDailyBackupIfDue } from './sqlite-backup.js';
import { KEEP_BACKUPS, listBackups, rotateBackups } from './sqlite-backup-files.js';
import { restoreSqliteStore } from './sqlite-restore.js';

const tempDir = useTempDirs();
const DAY = 24 * 60 * 60 * 1000;
const PROJECT = '/p/alpha';

function clockAt(start: string): Clock & { advance(ms: number): void } {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

async function storeWith(path: string, clock: Clock, texts: string[]): Promise<MemoryStore> {
  const store = await openSqliteStore({ path, clock });
  for (const content of texts) await store.remember({ content, projectKey: PROJECT });
  return store;
}

describe('daily backups of the SQLite store', () => {
  it('takes one copy a day, checked, and rotates to the newest KEEP_BACKUPS.daily', async () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    const clock = clockAt('2026-11-01T09:00:00.000Z');
    const store = await storeWith(path, clock, ['the build uses pnpm', 'staging is heliotrope']);
    try {
      const first = takeDailyBackupIfDue(path, clock);
      expect(first.taken).toBe(`${path}.bak-daily-20261101T090000000Z`);
      clock.advance(DAY - 1);
      expect(first.check).toMatchObject({ path: first.taken, memories: 2, problems: [] });
      expect(first.previous).toBeNull();
      expect(takeDailyBackupIfDue(path, clock)).toEqual({
        taken: null,
        check: null,
        previous: { path: first.taken, takenAt: '2026-11-01T09:00:00.000Z' },
        removed: [],
      });
      // Forced (`mnemo backup`), a copy is taken whenever asked.
      const forced = takeDailyBackupIfDue(path, clock, { force: true });
      expect(forced.taken).not.toBeNull();
      expect(forced.taken).not.toBe(first.taken);
      expect(checkBackup(forced.taken!)).toMatchObject({ memories: 2, problems: [] });
      for (let day = 0; day < KEEP_BACKUPS.daily + 2; day += 1) {
        clock.advance(DAY);
        expect(takeDailyBackupIfDue(path, clock).taken).not.toBeNull();
      }
      const daily = listBackups(path).filter((b) => b.kind === 'daily');
      expect(daily).toHaveLength(KEEP_BACKUPS.daily);
      expect(daily.map((b) => b.path)).not.toContain(first.taken);
      const newest = checkBackup(daily[0]!.path);
      expect(newest).toMatchObject({ memories: 2, problems: [] });
      expect(newest.auditEntries).toBeGreaterThanOrEqual(2);
      expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('keeps every older copy and no new one when the store fails its check', async () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    const clock = clockAt('2026-11-01T09:00:00.000Z');
    const store = await storeWith(path, clock, ['the build uses pnpm']);
    await store.close();
    const good = takeDailyBackupIfDue(path, clock).taken!;
    damagePages(path);
    clock.advance(2 * DAY);
    let error: unknown;
    try {
      takeDailyBackupIfDue(path, clock);
    } catch (caught) {
      error = caught;
    }
    expect(isMemoryError(error)).toBe(true);
    expect(listBackups(path).map((b) => b.path)).toEqual([good]);
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);
  });

  it('rotates pre-migration copies separately from daily ones', () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    writeFileSync(path, '');
    for (let n = 1; n <= 5; n += 1) writeFileSync(`${path}.bak-v3-2026110${n}T090000000Z`, '');
    writeFileSync(`${path}.bak-daily-20261001T090000000Z`, '');
    writeFileSync(`${path}.bak-daily-20261001T090000000Z.partial`, '');
    const removed = rotateBackups(path).map((p) => basename(p));
    expect(removed.sort()).toEqual([
      'mnemo.db.bak-v3-20261101T090000000Z',
      'mnemo.db.bak-v3-20261102T090000000Z',
    ]);
    expect(listBackups(path).map((b) => b.kind)).toEqual([
      ...Array<string>(KEEP_BACKUPS['pre-migration']).fill('pre-migration'),
      'daily',
    ]);
  });

  it('checks a copy made by an older schema version without calling it damaged', () => {
    const dir = tempDir();
    const copy = join(dir, 'mnemo.db.bak-v1-20250701T100000000Z');
    copyFileSync(new URL('../../../test/fixtures/sqlite/schema-v1.db', import.meta.url), copy);
    const check = checkBackup(copy);
    expect(check).toMatchObject({ schemaVersion: 1, problems: [] });
    expect(check.memories).toBeGreaterThan(0);
  });
});

describe('restoring the SQLite store', () => {
  it('restores the newest good copy, passes over a bad newer one, and keeps the damaged file aside', async () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    const clock = clockAt('2026-11-01T09:00:00.000Z');
    const store = await storeWith(path, clock, ['the build uses pnpm', 'staging is heliotrope']);
    const good = takeDailyBackupIfDue(path, clock).taken!;
    await store.remember({ content: 'written after the backup', projectKey: PROJECT });
    await store.close();
    const bad = `${path}.bak-daily-20261102T090000000Z`;
    writeFileSync(bad, 'not a database '.repeat(400));
    damagePages(path);
    writeFileSync(`${path}-wal`, 'stale wal bytes');
    const damaged = readFileSync(path);

    clock.advance(DAY);
    const report = restoreSqliteStore({ dbPath: path, clock });
    expect(report.restored).toMatchObject({ path: good, memories: 2, problems: [] });
    expect(report.skipped.map((s) => s.path)).toEqual([bad]);
    const aside = `${path}.before-restore-20261102T090000000Z`;
    expect(report.keptAside).toEqual([aside, `${aside}-wal`]);
    expect(readFileSync(aside).equals(damaged)).toBe(true);
    expect(readFileSync(`${aside}-wal`, 'utf8')).toBe('stale wal bytes');
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(readFileSync(path).equals(readFileSync(good))).toBe(true);

    const reopened = await openSqliteStore({ path, clock });
    try {
      expect(await reopened.checkIntegrity()).toEqual([]);
      const contents = (await reopened.listMemories({ limit: 10 })).map((m) => m.content).sort();
      expect(contents).toEqual(['staging is heliotrope', 'the build uses pnpm']);
    } finally {
      await reopened.close();
    }
  });

  it('refuses a --from copy that fails its check and leaves the store byte for byte as it was', async () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    const clock = clockAt('2026-11-01T09:00:00.000Z');
    await (await storeWith(path, clock, ['the build uses pnpm'])).close();
    const copy = `${path}.bak-daily-20261101T090000000Z`;
    takeDailyBackupIfDue(path, clock);
    damagePages(copy);
    const before = readFileSync(path);
    let error: unknown;
    try {
      restoreSqliteStore({ dbPath: path, from: copy, clock });
    } catch (caught) {
      error = caught;
    }
    expect(isMemoryError(error, 'CHECK_FAILED')).toBe(true);
    expect((error as Error).message).toContain('fails its own integrity check');
    expect((error as Error).message).toContain('The store was not touched');
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['mnemo.db', basename(copy)]);
  });

  it('says there is nothing to restore when there are no backups, and changes nothing', () => {
    const dir = tempDir();
    const path = join(dir, 'mnemo.db');
    writeFileSync(path, 'damaged');
    let error: unknown;
    try {
      restoreSqliteStore({ dbPath: path, clock: clockAt('2026-11-01T09:00:00.000Z') });
    } catch (caught) {
      error = caught;
    }
    expect(isMemoryError(error, 'NOT_FOUND')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('damaged');
  });
});
