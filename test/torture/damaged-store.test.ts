/**
 * Torture: a damaged database file, end to end through the built binary (threat model S1, S3). The
 * engine takes its daily backup (hooks run with a long deadline here: the locked-store test is the one
 * about deadlines); the store is then damaged (its pages overwritten, or the whole file
 * replaced by garbage). The registered hooks exit 0 and inject nothing; `mnemo doctor` names the damage
 * and the way back; `mnemo restore` refuses a backup that fails its own check, then restores the last
 * good state, keeping the damaged file aside byte for byte; `mnemo doctor --verify` then verifies the
 * store and the backups (audit chain included), and the memories are the ones of the backup.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { POSTGRES_RESTORE_REFUSAL } from '../../src/app/store-backups.js';
import { damagePages } from '../helpers/damage-store.js';
import { doctorCheck, doctorJson } from '../helpers/doctor-json.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { HOOK_TEST_ENV, hookFixture } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { installHooks, runRegisteredHook } from '../helpers/registered-hooks.js';
import { storeState } from '../helpers/store-state.js';

const newHome = useTestHomes();
const engines = useEngines();

const FACTS = [
  'the staging database is called heliotrope',
  'deploys go out through the blue-green pipeline on Tuesdays',
  'the billing service retries webhooks three times with jitter',
];

function dailyBackups(t: TestHome): string[] {
  // Only a finished copy: the engine checks it under a temporary name first.
  const finished = new RegExp(
    `^${basename(t.dbPath).replace('.', '\\.')}\\.bak-daily-\\d{8}T\\d{9}Z$`,
  );
  return readdirSync(t.home)
    .filter((name) => finished.test(name))
    .map((name) => join(t.home, name));
}

/** A home with hooks registered, three memories, and the daily backup the engine took of them. */
async function backedUpHome() {
  const t = newHome();
  t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  engines.watch(t);
  const hooks = await installHooks(t);
  for (const fact of FACTS)
    expect((await t.run(['remember', '-k', 'decision', fact])).code).toBe(0);
  await engines.start(t, ['--idle-exit', '0']);
  const [backup] = await waitFor('the daily backup', () => {
    const found = dailyBackups(t);
    return found.length > 0 ? found : undefined;
  });
  expect((await t.run(['serve', '--stop'])).code).toBe(0);
  await waitFor(
    'the engine to release the store',
    () => !existsSync(join(t.home, 'engine.lock')) || undefined,
  );
  const startup = hookFixture('session-start.startup', { cwd: t.project });
  // Before the damage, session start injects the memories: the quiet hook below is not a dead hook.
  const healthy = await runRegisteredHook(t, hooks, 'session-start', startup, HOOK_TEST_ENV);
  expect(healthy.code).toBe(0);
  expect(healthy.stdout).toContain('heliotrope');
  return { t, hooks, backup: backup!, startup };
}

async function expectQuietHooks(
  t: TestHome,
  hooks: Record<string, readonly string[]>,
  startup: Record<string, unknown>,
) {
  const prompt = hookFixture('user-prompt-submit', { cwd: t.project });
  const edit = hookFixture('post-tool-use-edit', { cwd: t.project });
  for (const [event, payload] of [
    ['session-start', startup],
    ['user-prompt-submit', prompt],
    ['post-tool-use', edit],
  ] as const) {
    const result = await runRegisteredHook(t, hooks, event, payload, HOOK_TEST_ENV);
    expect({ event, code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({
      event,
      code: 0,
      signal: null,
      stdout: '',
    });
  }
}

async function restoreAndVerify(t: TestHome, backup: string, damaged: Buffer) {
  // A backup that fails its own check is refused, and nothing changes.
  const bogus = join(dirname(t.dbPath), 'not-a-backup.db');
  writeFileSync(bogus, 'this is not a database '.repeat(200));
  const refused = await t.run(['restore', '--from', bogus]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('fails its own integrity check');
  expect(readFileSync(t.dbPath).equals(damaged)).toBe(true);

  const restored = await t.run(['restore']);
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stdout).toContain(`restored ${backup}`);
  const aside = /kept aside: (\S+)/.exec(restored.stdout)?.[1];
  expect(aside).toBeDefined();
  expect(readFileSync(aside!).equals(damaged)).toBe(true);

  const state = await storeState(t.home);
  expect(state.problems).toEqual([]);
  expect(state.memories.map((m) => m.content).sort()).toEqual([...FACTS].sort());

  const { report } = await doctorJson(t, ['--verify']);
  expect(doctorCheck(report, 'store')).toMatchObject({ ok: true, data: { problems: [] } });
  const backups = doctorCheck(report, 'backups');
  expect(backups.ok).toBe(true);
  expect(backups.detail).toContain(`\`mnemo restore\` would use ${backup}`);
  expect(backups.detail).toMatch(/audit chain of \d+ entries verified/);
}

describe('a damaged database file', () => {
  it('with damaged pages: hooks stay quiet, doctor says so, restore brings back the last good state', async () => {
    const { t, hooks, backup, startup } = await backedUpHome();
    damagePages(t.dbPath);
    const damaged = readFileSync(t.dbPath);
    await expectQuietHooks(t, hooks, startup);

    const { code, report } = await doctorJson(t);
    expect(code).toBe(1);
    const store = doctorCheck(report, 'store');
    expect(store.ok).toBe(false);
    expect(store.fix).toContain('mnemo restore');
    expect(doctorCheck(report, 'backups').detail).toContain('1 beside the store');

    await restoreAndVerify(t, backup, damaged);
  });

  it('replaced by garbage: the same, and doctor still lists the backups', async () => {
    const { t, hooks, backup, startup } = await backedUpHome();
    writeFileSync(t.dbPath, Buffer.from('definitely not a sqlite database '.repeat(300)));
    const damaged = readFileSync(t.dbPath);
    await expectQuietHooks(t, hooks, startup);

    const text = await t.run(['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^FAIL {2}store +the store does not open: The memory store .* is damaged/m,
    );
    expect(text.stdout).toContain('`mnemo restore`');
    expect(text.stdout).toMatch(/^ok {4}backups +1 beside the store/m);

    await restoreAndVerify(t, backup, damaged);
  });

  it('restore refuses while the engine has the store open, and changes nothing', async () => {
    const { t } = await backedUpHome();
    await engines.start(t, ['--idle-exit', '0']);
    const result = await t.run(['restore']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('mnemo serve --stop');
    // The engine may checkpoint the file meanwhile: what must not exist is any trace of a restore.
    expect(readdirSync(t.home).filter((name) => /before-restore|\.restore-/.test(name))).toEqual(
      [],
    );
    expect((await storeState(t.home)).memories).toHaveLength(FACTS.length);
  });

  it('restore on a PostgreSQL store points at the server’s own backup tools', async () => {
    const t = newHome();
    const result = await t.run(['restore'], {
      env: { MNEMO_DATABASE_URL: 'postgres://mnemo@127.0.0.1:1/mnemo' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(POSTGRES_RESTORE_REFUSAL);
    expect(existsSync(t.dbPath)).toBe(false);
  });
});
