/**
 * A store that cannot serve: unreadable, corrupt, locked by another process, badly configured. Each
 * gives a message with a next step, exit code 1, and leaves the store's bytes or rows unchanged.
 *
 * Tests run as root, where `chmod 000` does not stop reads, so "unreadable" is a directory standing
 * where the database file should be — it fails to open for every user.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { holdExclusiveLock } from '../helpers/hold-lock.js';
import { exportRows, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

describe('mnemo with a store it cannot use', () => {
  it('reports an unreadable store file and creates nothing in its place', async () => {
    const t = newHome();
    mkdirSync(t.dbPath, { recursive: true });
    const result = await t.run(['remember', 'will not be stored']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^mnemo: Cannot open the (memory )?store .*mnemo\.db\b.*point MNEMO_HOME at another directory\.\n$/,
    );
    expect(readdirSync(t.dbPath)).toEqual([]);
    expect(readdirSync(t.home).filter((name) => name !== 'logs')).toEqual(['mnemo.db']);
  });

  it('reports a file that is not a database and leaves its bytes alone', async () => {
    const t = newHome();
    mkdirSync(t.home);
    const garbage = Buffer.from('this is not a database, just some bytes '.repeat(200));
    writeFileSync(t.dbPath, garbage);
    for (const args of [['remember', 'x'], ['list'], ['export']]) {
      const result = await t.run(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /is damaged or is not a mnemo database\. Nothing was read from it\./,
      );
    }
    expect(readFileSync(t.dbPath).equals(garbage)).toBe(true);
  });

  it('reports a store whose pages are damaged and does not write to it', async () => {
    const t = newHome();
    // Two large memories span many pages, so damage past the first page hits table data.
    await t.run(['remember', '-'], { input: 'alpha beta gamma '.repeat(1500) });
    await t.run(['remember', '-'], { input: 'delta epsilon zeta '.repeat(1500) });
    const bytes = readFileSync(t.dbPath);
    // Keep the 100-byte header valid, scribble over everything after the first page.
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, 4096);
    writeFileSync(t.dbPath, damaged);
    const result = await t.run(['remember', 'after the damage']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is damaged or is not a mnemo database/);
    expect(readFileSync(t.dbPath).equals(damaged)).toBe(true);
  });

  it('reports a store locked by another process as busy and stores nothing', async () => {
    const t = newHome();
    await t.run(['remember', 'already here']);
    const before = await exportRows(t);
    const lock = await holdExclusiveLock(t.dbPath);
    let result;
    try {
      result = await t.run(['remember', 'written while locked'], {
        env: { MNEMO_BUSY_TIMEOUT_MS: '100' },
      });
    } finally {
      await lock.release();
    }
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^mnemo: The memory store .*mnemo\.db is locked by another mnemo process\. Retry in a moment/,
    );
    expect(await exportRows(t)).toBe(before);
  });

  it('reports an invalid config file by field and opens no store', async () => {
    const t = newHome();
    await t.run(['remember', 'before the bad config']);
    const before = await exportRows(t);
    writeFileSync(join(t.home, 'config.json'), JSON.stringify({ busyTimeoutMs: 'soon' }));
    const result = await t.run(['remember', 'after the bad config']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^mnemo: Field "busyTimeoutMs" in the config file .*config\.json is invalid: .*Fix the value or remove the field/,
    );
    writeFileSync(join(t.home, 'config.json'), '{}');
    expect(await exportRows(t)).toBe(before);
  });

  it('reports an invalid environment override', async () => {
    const t = newHome();
    const result = await t.run(['list'], { env: { MNEMO_BUSY_TIMEOUT_MS: 'soon' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/MNEMO_BUSY_TIMEOUT_MS="soon" is invalid.*Fix or unset it/);
  });
});
