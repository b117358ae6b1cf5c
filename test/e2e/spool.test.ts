/**
 * The capture spool end to end (threat model W11): a hook that meets a locked store spools the capture
 * and exits 0 with nothing on stdout; the engine later stores it exactly once, also across a drain that
 * is killed mid-way. Real processes, the built binary, a real SQLite lock held by another process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { CONFIG_DEFAULTS } from '../../src/config/config.js';
import { QUARANTINE_STATES } from '../../src/core/memory.js';
import { requestEngineDrain } from '../../src/engine/engine-client.js';
import { createLogger } from '../../src/log/log.js';
import { appendSpool } from '../../src/spool/append-spool.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { holdExclusiveLock } from '../helpers/hold-lock.js';
import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { REPO_ROOT, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { openTestApp } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
// Assembled at run time so no key-shaped literal sits in the repository.
const FAKE_TOKEN = ['ghp', 'R8x2Kq9Lm4Vb7Nc1Zt6Yw3Hs5Jd0Fg2Pa8Qe'].join('_');

/** A home with the hash embedder and, unless asked, no background engine start after spooling. */
async function home(options: { autoStart?: boolean } = {}): Promise<TestHome> {
  const t = newHome();
  // This file decides auto-start per home, in its config file.
  delete t.env['MNEMO_ENGINE_AUTOSTART'];
  Object.assign(t.env, { MNEMO_EMBEDDING_MODEL: 'hash' });
  mkdirSync(t.home, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(t.home, 'config.json'),
    JSON.stringify({ engine: { autoStart: options.autoStart ?? false } }),
  );
  // Creates the database, so another process can lock it.
  expect((await t.run(['stats'])).code).toBe(0);
  engines.watch(t);
  return t;
}

async function rows(t: TestHome): Promise<string[]> {
  const app = await openTestApp(t.home);
  try {
    const all = await app.store.listMemories({
      limit: 1000,
      includeSuperseded: true,
      quarantine: QUARANTINE_STATES,
    });
    return all.map((memory) => memory.content);
  } finally {
    await app.close();
  }
}

async function counters(t: TestHome): Promise<Record<string, number>> {
  const app = await openTestApp(t.home);
  try {
    const out: Record<string, number> = {};
    for (const row of await app.store.readCounters('2000-01-01')) out[row.name] = row.value;
    return out;
  } finally {
    await app.close();
  }
}

function spoolFiles(t: TestHome, dir = ''): string[] {
  const path = join(t.home, 'spool', dir);
  return existsSync(path) ? readdirSync(path).filter((name) => name.endsWith('.jsonl')) : [];
}

function editWithSecret(t: TestHome): Record<string, unknown> {
  return hookFixture('post-tool-use-edit', {
    cwd: t.project,
    patch: {
      tool_input: {
        file_path: join(t.project, 'src/config.ts'),
        old_string: 'const token = process.env.TOKEN;',
        new_string: `const token = '${FAKE_TOKEN}';`,
      },
    },
  });
}

describe('capture spool (built binary)', () => {
  it('spools a capture while another process holds the store lock, and the engine stores it exactly once', async () => {
    const t = await home();
    const lock = await holdExclusiveLock(t.dbPath);
    try {
      const result = await runHookBin(t, 'post-tool-use', editWithSecret(t));
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: '' });
      const [file] = spoolFiles(t);
      expect(file).toBeDefined();
      const bytes = readFileSync(join(t.home, 'spool', file ?? ''), 'utf8');
      expect(bytes).not.toContain(FAKE_TOKEN);
      expect(bytes).toContain('[REDACTED:github_token]');
      expect(lstatSync(join(t.home, 'spool', file ?? '')).mode & 0o777).toBe(0o600);
      expect(lstatSync(join(t.home, 'spool')).mode & 0o777).toBe(0o700);
      expect(readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8')).toMatch(
        /"msg":"capture.spooled","hook":"post-tool-use","trigger":"store_busy"/,
      );
      // autoStart is off in this home: nothing started an engine.
      expect(existsSync(join(t.home, 'engine.lock'))).toBe(false);
    } finally {
      await lock.release();
    }
    expect(await rows(t)).toEqual([]);

    const engine = await engines.start(t, ['--idle-exit', '0']);
    await waitFor('the spooled capture to be stored', async () => (await rows(t)).length === 1);
    const [content] = await rows(t);
    expect(content).toMatch(/^Edited src\/config\.ts: .*\[REDACTED:github_token\]/);
    // The drain removes a file after its last entry's commit and progress record: wait for that too.
    await waitFor('the drained file to be removed', () => spoolFiles(t, 'draining').length === 0);
    expect(spoolFiles(t)).toEqual([]);
    // Draining again finds nothing, and the same capture hooked again live is merged, not duplicated.
    expect(await requestEngineDrain({ home: t.home }, 10_000)).toMatchObject({ applied: 0 });
    engine.child.kill('SIGTERM');
    await engine.exited;
    await runHookBin(t, 'post-tool-use', editWithSecret(t));
    expect(await rows(t)).toHaveLength(1);
    expect(await counters(t)).toMatchObject({ 'capture.spooled': 1, 'write.stored': 1 });
  });

  it('starts the engine in the background after spooling; it drains once the lock frees', async () => {
    const t = await home({ autoStart: true });
    const lock = await holdExclusiveLock(t.dbPath);
    try {
      const result = await runHookBin(
        t,
        'post-tool-use',
        hookFixture('post-tool-use-write', { cwd: t.project }),
      );
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: '' });
      await waitFor('the background engine', () => existsSync(join(t.home, 'engine.lock')));
    } finally {
      await lock.release();
    }
    await waitFor('the engine to drain the spool', async () => (await rows(t)).length === 1);
    expect(spoolFiles(t)).toEqual([]);
  });

  it('stores every entry exactly once when a drain is killed between a commit and its progress record', async () => {
    const t = await home();
    const texts = Array.from(
      { length: 6 },
      (_, i) =>
        `Edited src/module-${i}.ts: ${['added retries', 'removed the cache', 'renamed the export', 'split the parser', 'fixed the off by one', 'logged the timeout'][i]}`,
    );
    const config = { home: t.home, spool: CONFIG_DEFAULTS.spool };
    const log = createLogger({ level: 'silent', clock: { now: () => new Date() } });
    const outcome = appendSpool(
      config,
      texts.map((content) => ({
        type: 'tool_result' as const,
        event: 'PostToolUse' as const,
        toolName: 'Edit',
        sessionId: 'crash-session',
        capture: { projectKey: t.project, kind: 'capture' as const, content, tags: [] },
      })),
      { log },
    );
    expect(outcome.spooled).toBe(true);

    // A real process that drains and dies by SIGKILL right after the third entry's commit.
    const dist = (file: string) => pathToFileURL(join(REPO_ROOT, 'dist', file)).href;
    const script = `
      const { openApp } = await import(${JSON.stringify(dist('app/open-app.js'))});
      const { drainSpool } = await import(${JSON.stringify(dist('spool/drain-spool.js'))});
      const app = await openApp({ env: { MNEMO_HOME: process.argv[1] } });
      let commits = 0;
      await drainSpool(app, { afterCommit: () => { if (++commits === 3) process.kill(process.pid, 'SIGKILL'); } });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, t.home], {
      stdio: 'ignore',
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await rows(t)).toHaveLength(3);
    expect(spoolFiles(t, 'draining')).toHaveLength(1);
    const progress = readdirSync(join(t.home, 'spool', 'draining')).find((n) =>
      n.endsWith('.progress'),
    );
    // The third entry committed, but its id never reached the progress file.
    expect(
      readFileSync(join(t.home, 'spool', 'draining', progress ?? ''), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2);

    await engines.start(t, ['--idle-exit', '0']);
    await waitFor('the rest to be stored', async () => (await rows(t)).length === 6);
    // The drain removes the claimed file, then its progress file: wait for both.
    await waitFor(
      'the claimed file and its progress to be removed',
      () => readdirSync(join(t.home, 'spool', 'draining')).length === 0,
    );
    expect((await rows(t)).sort()).toEqual([...texts].sort());
  });

  it('never applies a spool file that others could have written', async () => {
    const t = await home();
    const lock = await holdExclusiveLock(t.dbPath);
    try {
      await runHookBin(t, 'post-tool-use', hookFixture('post-tool-use-edit', { cwd: t.project }));
    } finally {
      await lock.release();
    }
    const [file] = spoolFiles(t);
    chmodSync(join(t.home, 'spool', file ?? ''), 0o666);
    await engines.start(t, ['--idle-exit', '0']);
    expect(await requestEngineDrain({ home: t.home }, 10_000)).toBeDefined();
    await waitFor('the file to be refused', () => spoolFiles(t, 'refused').length === 1);
    expect(await rows(t)).toEqual([]);
    expect(readFileSync(join(t.home, 'logs', 'mnemo.log'), 'utf8')).toContain(
      'spool: file refused',
    );
  });
});
