/**
 * The capture hand-off end to end: with `mnemo serve` running, a capture hook hands its plan to the engine
 * over the token-guarded socket instead of opening the store, and the engine stores it once, with the
 * origin of its channel. An engine that dies or hangs mid-hand-off leaves the capture spooled by the hook:
 * never lost, and stored once when drained. Real processes, the built binary, a real SQLite file.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { Memory } from '../../src/core/memory.js';
import { QUARANTINE_STATES } from '../../src/core/memory.js';
import { drainSpool } from '../../src/spool/drain-spool.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
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

function rows(t: TestHome): Promise<Memory[]> {
  return withStore(t.home, (app) =>
    app.store.listMemories({ limit: 100, includeSuperseded: true, quarantine: QUARANTINE_STATES }),
  );
}

async function counters(t: TestHome): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const row of await withStore(t.home, (app) => app.store.readCounters('2000-01-01'))) {
    out[row.name] = (out[row.name] ?? 0) + row.value;
  }
  return out;
}

function spooled(t: TestHome): string[] {
  const dir = join(t.home, 'spool');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')) : [];
}

function logText(t: TestHome): string {
  const file = join(t.home, 'logs', 'mnemo.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
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
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    const stored = await rows(t);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ origin: 'local_edit', kind: 'capture', quarantine: 'none' });
    expect(spooled(t)).toEqual([]);
    expect(await counters(t)).toMatchObject({ 'capture.handed_off': 1, 'write.stored': 1 });
  });

  it('takes origin and taint from the channel: a handed-off WebFetch is quarantined and taints', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    const stored = await rows(t);
    expect(stored.map((m) => [m.origin, m.quarantine])).toEqual([['network', 'pending']]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network', toolName: 'WebFetch' });
    expect(await counters(t)).toMatchObject({ 'capture.handed_off': 1 });
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
    expect(await rows(t)).toHaveLength(1);
    expect(spooled(t)).toHaveLength(1);
    expect(logText(t)).toContain(
      'the engine did not answer a forwarded hook; the hook handles it itself',
    );
    await drainOnce(t);
    const stored = await rows(t);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ origin: 'local_edit' });
    expect(spooled(t)).toEqual([]);
    expect(await counters(t)).toMatchObject({ 'write.stored': 1, 'write.merged': 1 });
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
      expect(spooled(t)).toHaveLength(1);
    } finally {
      process.kill(engine.pid, 'SIGKILL');
      await engine.exited;
    }
    expect(await rows(t)).toEqual([]);
    await drainOnce(t);
    expect((await rows(t)).map((m) => m.origin)).toEqual(['local_edit']);
    expect(spooled(t)).toEqual([]);
  });

  it('writes directly when no engine runs, as before', async () => {
    const t = hashHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect((await rows(t)).map((m) => m.origin)).toEqual(['local_edit']);
    expect(spooled(t)).toEqual([]);
    expect(await counters(t)).not.toHaveProperty('capture.handed_off');
  });
});
