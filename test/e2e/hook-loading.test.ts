/**
 * What a hook process loads: the store and its native driver only when the event writes or reads there
 * itself. A skipped Read, a capture handed to the engine and an injection the engine answers never load
 * better-sqlite3 or sqlite-vec; on a SQLite home no hook ever loads the PostgreSQL driver. The built
 * binary, with a preload that records every `require` the hook bundle makes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { useEngines } from '../helpers/engine-process.js';
import { expectQuietHook, hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const RECORDER = fileURLToPath(new URL('../helpers/record-requires.cjs', import.meta.url));

function recordingHome(): { t: TestHome; loaded: () => string[] } {
  const t = newHome();
  const file = join(t.project, '..', 'requires.txt');
  Object.assign(t.env, {
    MNEMO_EMBEDDING_MODEL: 'hash',
    NODE_OPTIONS: `--require ${RECORDER}`,
    MNEMO_TEST_REQUIRES_FILE: file,
  });
  return {
    t,
    loaded: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []),
  };
}

describe('hook process loading (built binary)', () => {
  it('opens no store and loads no SQLite driver for a skipped Read', async () => {
    const { t, loaded } = recordingHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-read', { cwd: t.project }),
    );
    expect(existsSync(t.dbPath)).toBe(false);
    expect(readdirSync(join(t.home, 'spool'))).toEqual(['capture.skipped.read_not_captured.tally']);
    expect(loaded()).not.toContain('better-sqlite3');
    expect(loaded()).not.toContain('sqlite-vec');
    expect(loaded()).not.toContain('pg');
  });

  it('hands an Edit to the running engine without loading the SQLite driver', async () => {
    const { t, loaded } = recordingHome();
    await engines.start(t, ['--idle-exit', '0'], {
      NODE_OPTIONS: '',
      MNEMO_TEST_REQUIRES_FILE: '',
    });
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(loaded()).toContain('node:net');
    expect(loaded()).not.toContain('better-sqlite3');
    const stored = await withStore(t.home, (app) => app.store.listMemories({ limit: 10 }));
    expect(stored.map((memory) => memory.origin)).toEqual(['local_edit']);
  });

  it('loads the driver when the event must write and no engine runs', async () => {
    const { t, loaded } = recordingHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(loaded()).toContain('better-sqlite3');
    expect(loaded()).not.toContain('pg');
    expect(existsSync(t.dbPath)).toBe(true);
  });

  it('has the running engine answer session start and prompt recall without loading any driver', async () => {
    const { t, loaded } = recordingHome();
    mkdirSync(join(t.project, '.git'), { recursive: true });
    await withStore(t.home, (app) =>
      app.store.remember({
        content: 'GET /orders returns 500 after the migration: the orders index was dropped.',
        projectKey: t.project,
        kind: 'decision',
        origin: 'user',
      }),
    );
    await engines.start(t, ['--idle-exit', '0'], {
      NODE_OPTIONS: '',
      MNEMO_TEST_REQUIRES_FILE: '',
    });
    const start = await runHookBin(
      t,
      'session-start',
      hookFixture('session-start.startup', { cwd: t.project }),
    );
    expect(start).toMatchObject({ code: 0, stderr: '' });
    expect(start.stdout).toContain('orders index was dropped');
    const prompt = await runHookBin(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project }),
    );
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    expect(loaded()).toContain('node:net');
    for (const driver of ['better-sqlite3', 'sqlite-vec', 'pg'])
      expect(loaded()).not.toContain(driver);
    const ping = await pingEngine({ home: t.home }, 5000);
    expect(ping?.injections).toBe(2);
  });
});
