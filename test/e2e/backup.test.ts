/**
 * `mnemo backup` through the built binary, and the engine's daily backup taken in a process of its own
 * (src/engine/engine-backup.ts) with a real store file: every copy is opened and checked here, not taken
 * on the report's word.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { POSTGRES_BACKUP_REFUSAL, storeBackups } from '../../src/app/store-backups.js';
import { backupInProcessOfItsOwn, takeDailyBackup } from '../../src/engine/engine-backup.js';
import { checkBackup } from '../../src/store/sqlite/sqlite-backup.js';
import { damagePages } from '../helpers/damage-store.js';
import { MNEMO_BIN, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { openTestApp } from '../helpers/test-app.js';

const newHome = useTestHomes();

const FACTS = ['the staging database is called heliotrope', 'releases are cut on Thursdays'];

async function homeWithFacts(): Promise<TestHome> {
  const t = newHome();
  for (const fact of FACTS) expect((await t.run(['remember', fact])).code).toBe(0);
  return t;
}

function backupsOf(t: TestHome): string[] {
  return readdirSync(t.home)
    .filter((name) => name.startsWith(`${basename(t.dbPath)}.bak-daily-`))
    .sort();
}

describe('mnemo backup', () => {
  it('takes a checked copy now, and with --if-due only when the newest is a day old', async () => {
    const t = await homeWithFacts();
    const taken = await t.run(['backup', '--json']);
    expect(taken.code).toBe(0);
    const report = JSON.parse(taken.stdout) as {
      taken: string;
      check: { memories: number; problems: string[] };
    };
    expect(backupsOf(t)).toEqual([basename(report.taken)]);
    expect(report.check).toMatchObject({ memories: FACTS.length, problems: [] });
    expect(checkBackup(report.taken)).toMatchObject({ memories: FACTS.length, problems: [] });

    const notDue = await t.run(['backup', '--if-due']);
    expect(notDue.code).toBe(0);
    expect(notDue.stdout).toContain('no backup due');
    expect(notDue.stdout).toContain(basename(report.taken));
    expect(backupsOf(t)).toHaveLength(1);

    const again = await t.run(['backup']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^backup: .*\.bak-daily-/m);
    expect(again.stdout).toContain(`checked: ${FACTS.length} memories`);
    expect(backupsOf(t)).toHaveLength(2);
  });

  it('keeps no copy of a damaged store and says so, leaving the older backups alone', async () => {
    const t = await homeWithFacts();
    expect((await t.run(['backup'])).code).toBe(0);
    const before = backupsOf(t);
    damagePages(t.dbPath);

    const result = await t.run(['backup']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/damaged|integrity|malformed/i);
    expect(backupsOf(t)).toEqual(before);
    expect(readdirSync(t.home).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('points a PostgreSQL home at the server’s own backup tools and writes nothing', async () => {
    const t = newHome();
    const result = await t.run(['backup'], {
      env: { MNEMO_DATABASE_URL: 'postgres://mnemo@127.0.0.1:1/mnemo' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(POSTGRES_BACKUP_REFUSAL);
    expect(existsSync(t.dbPath)).toBe(false);
  });
});

describe('the engine’s daily backup', () => {
  it('is taken by the built executable in a process of its own, once a day', async () => {
    const t = await homeWithFacts();
    const app = await openTestApp(t.home);
    try {
      const backups = (await storeBackups(app.config))!;
      // The copy is the child's work: a launcher that cannot start mnemo takes no copy at all, and
      // the child's failure reaches the engine with its message.
      const broken = { execPath: process.execPath, main: join(t.home, 'none.cjs') };
      await expect(takeDailyBackup(app, backups, broken)).rejects.toThrow(/mnemo backup failed/);
      await expect(backupInProcessOfItsOwn(app, broken)).rejects.toThrow(/Cannot find module/);
      expect(backupsOf(t)).toEqual([]);

      const launcher = { execPath: process.execPath, main: MNEMO_BIN };
      const report = await takeDailyBackup(app, backups, launcher);
      expect(report?.taken).toMatch(/\.bak-daily-\d{8}T\d{9}Z$/);
      expect(checkBackup(report!.taken!)).toMatchObject({ memories: FACTS.length, problems: [] });
      // Not due again within the day: no process is started and nothing is written.
      expect(await takeDailyBackup(app, backups, broken)).toBeNull();
      expect(backupsOf(t)).toEqual([basename(report!.taken!)]);
      expect(readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8')).not.toContain(
        'on the engine thread',
      );
    } finally {
      await app.close();
    }
  });

  it('falls back to the engine thread without a built executable, and logs why', async () => {
    const t = await homeWithFacts();
    const app = await openTestApp(t.home);
    try {
      const backups = (await storeBackups(app.config))!;
      const report = await takeDailyBackup(app, backups, { unavailable: 'not built here' });
      expect(checkBackup(report!.taken!)).toMatchObject({ memories: FACTS.length, problems: [] });
    } finally {
      await app.close();
    }
    const log = readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8');
    expect(log).toContain('daily backup on the engine thread');
    expect(log).toContain('not built here');
  });
});
