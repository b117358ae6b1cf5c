/**
 * The capture hand-off end to end: with `mnemo serve` running, a capture hook hands its plan to the engine
 * over the token-guarded socket instead of opening the store, and the engine stores it once, with the
 * origin of its channel (the hook's bundle path, taken when a hook is not forwarded whole: here with
 * `MNEMO_HOOK_FORWARD=0`; forwarding is test/e2e/hook-forward.test.ts). An engine that dies or hangs
 * mid-call, forwarded or handed off, leaves the capture spooled by the hook: never lost, and stored once
 * when drained. Real processes, the built binary, a real SQLite file.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { drainSpool } from '../../src/spool/drain-spool.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { allRows, logText, spooledFiles, summedCounters } from '../helpers/home-state.js';
import { expectQuietHook, FIXTURE_SESSION, hookFixture } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const DYING_ENGINE = fileURLToPath(new URL('../helpers/dying-engine.mjs', import.meta.url));

function hashHome(): TestHome {
  const t = newHome();
  Object.assign(t.env, { MNEMO_EMBEDDING_MODEL: 'hash' });
  return t;
}

/** A home whose hooks take their bundle's path, so a capture goes through the `capture` hand-off. */
function handOffHome(): TestHome {
  const t = hashHome();
  Object.assign(t.env, { MNEMO_HOOK_FORWARD: '0' });
  return t;
}

/** Starts the dying engine of test/helpers/dying-engine.mjs; resolves once it listens. */
async function startDyingEngine(t: TestHome): Promise<{ exited: Promise<string | null> }> {
  engines.watch(t);
  const child = spawn(process.execPath, [DYING_ENGINE], {
    cwd: t.project,
    env: t.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  await waitFor('the dying engine to listen', () => out.includes('ready'));
  return { exited };
}

async function drainOnce(t: TestHome): Promise<void> {
  const report = await withStore(t.home, (app) => drainSpool(app));
  expect(report).toMatchObject({ failed: 0, invalid: 0 });
}

describe('capture hand-off to the engine (built binary)', () => {
  it('hands an Edit to the running engine, which stores it exactly once as a local edit', async () => {
    const t = handOffHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    const stored = await allRows(t);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ origin: 'local_edit', kind: 'capture', quarantine: 'none' });
    expect(spooledFiles(t)).toEqual([]);
    expect(await summedCounters(t)).toMatchObject({ 'capture.handed_off': 1, 'write.stored': 1 });
  });

  it('takes origin and taint from the channel: a handed-off WebFetch is quarantined and taints', async () => {
    const t = handOffHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    const stored = await allRows(t);
    expect(stored.map((m) => [m.origin, m.quarantine])).toEqual([['network', 'pending']]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network', toolName: 'WebFetch' });
    expect(await summedCounters(t)).toMatchObject({ 'capture.handed_off': 1 });
  });

  it('spools a capture whose engine died before answering, and the drain does not store it twice', async () => {
    const t = hashHome();
    const engine = await startDyingEngine(t);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(await engine.exited).toBe('SIGKILL');
    // The engine had committed the write; the hook, left without an answer, spooled it too.
    expect(await allRows(t)).toHaveLength(1);
    expect(spooledFiles(t)).toHaveLength(1);
    expect(logText(t)).toContain(
      'the engine did not answer a forwarded hook; the hook handles it itself',
    );
    await drainOnce(t);
    const stored = await allRows(t);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ origin: 'local_edit' });
    expect(spooledFiles(t)).toEqual([]);
    expect(await summedCounters(t)).toMatchObject({ 'write.stored': 1, 'write.merged': 1 });
  });

  it('spools a capture when the engine hangs, and stores it once when drained', async () => {
    const t = hashHome();
    const engine = await engines.start(t, ['--idle-exit', '0']);
    process.kill(engine.pid, 'SIGSTOP');
    try {
      await expectQuietHook(
        t,
        'post-tool-use',
        hookFixture('post-tool-use-edit', { cwd: t.project }),
      );
      expect(spooledFiles(t)).toHaveLength(1);
    } finally {
      process.kill(engine.pid, 'SIGKILL');
      await engine.exited;
    }
    expect(await allRows(t)).toEqual([]);
    await drainOnce(t);
    expect((await allRows(t)).map((m) => m.origin)).toEqual(['local_edit']);
    expect(spooledFiles(t)).toEqual([]);
  });

  it('writes directly when no engine runs, as before', async () => {
    const t = hashHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect((await allRows(t)).map((m) => m.origin)).toEqual(['local_edit']);
    expect(spooledFiles(t)).toEqual([]);
    expect(await summedCounters(t)).not.toHaveProperty('capture.handed_off');
  });
});
