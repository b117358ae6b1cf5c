/**
 * Torture: the store locked for longer than a hook's deadline (threat model W11). Another process holds
 * SQLite's write lock for 4 × the hook deadline; a capture hook, run through the command `mnemo install`
 * registers and with the production deadline, must exit 0 with nothing on stdout while the lock is still
 * held, having spooled the capture within its own deadline (the `elapsedMs` it logs). Once the lock frees,
 * the engine stores the capture exactly once. Once with no engine (the hook's own write meets the lock)
 * and once with one (the engine's write meets it; the hook must not wait longer than its deadline).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HOOK_DEADLINE_MS } from '../../src/hooks/hook-limits.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { holdExclusiveLock } from '../helpers/hold-lock.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { installHooks, startRegisteredHook } from '../helpers/registered-hooks.js';
import { markerCounts, storeState } from '../helpers/store-state.js';
import { captureMarker, markedEdit } from '../helpers/torture-payloads.js';

const newHome = useTestHomes();
const engines = useEngines();

/** How long the other process keeps the lock: well past the hook's deadline. */
const LOCK_MS = 4 * HOOK_DEADLINE_MS;

function spooledLines(t: TestHome): { trigger: string; elapsedMs: number }[] {
  const file = join(t.home, 'logs', 'mnemo.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"msg":"capture.spooled"'))
    .map((line) => JSON.parse(line) as { trigger: string; elapsedMs: number });
}

function spoolFiles(t: TestHome): string[] {
  const dir = join(t.home, 'spool');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')) : [];
}

async function lockedCapture(t: TestHome, withEngine: boolean): Promise<void> {
  const hooks = await installHooks(t);
  expect((await t.run(['stats'])).code).toBe(0);
  if (withEngine) await engines.start(t, ['--idle-exit', '0']);
  const marker = captureMarker(1, 1);
  const lock = await holdExclusiveLock(t.dbPath);
  const lockedAt = Date.now();
  let hookExitedAt: number;
  try {
    // The production deadline: no MNEMO_HOOK_DEADLINE_MS override.
    const hook = startRegisteredHook(t, hooks, 'post-tool-use', markedEdit(t.project, 1, 1));
    const result = await hook.done;
    hookExitedAt = Date.now();
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({
      code: 0,
      signal: null,
      stdout: '',
    });
    // Spooled by the hook itself, or by the engine that answered its hand-off.
    await waitFor('the capture in the spool', () => spoolFiles(t).length > 0, 10_000);
    expect((await storeState(t.home)).memories).toEqual([]);
    // Still inside the other process's lock: the hook did not wait for it.
    expect(hookExitedAt - lockedAt).toBeLessThan(LOCK_MS);
    const remaining = LOCK_MS - (Date.now() - lockedAt);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
  } finally {
    await lock.release();
  }
  const hookLines = spooledLines(t);
  expect(hookLines.length).toBeGreaterThan(0);
  for (const line of hookLines.filter((l) => l.elapsedMs !== undefined)) {
    expect(line.elapsedMs).toBeLessThanOrEqual(HOOK_DEADLINE_MS);
  }
  if (!withEngine) await engines.start(t, ['--idle-exit', '0']);
  const state = await waitFor(
    'the spooled capture stored once the lock freed',
    async () => {
      const s = await storeState(t.home);
      return s.memories.length > 0 && spoolFiles(t).length === 0 ? s : undefined;
    },
    60_000,
    200,
  );
  expect([...markerCounts(state.memories, [marker])]).toEqual([[marker, 1]]);
  expect(state.memories).toHaveLength(1);
  expect(state.problems).toEqual([]);
  expect(state.counters['write.stored']).toBe(1);
}

describe('a store locked for longer than the hook deadline', () => {
  it('spools inside the deadline when the hook writes the store itself, and stores it once later', async () => {
    const t = newHome();
    engines.watch(t);
    await lockedCapture(t, false);
    expect(spooledLines(t).map((l) => l.trigger)).toEqual(['store_busy']);
  });

  it('spools inside the deadline when the engine meets the lock, and stores it once later', async () => {
    const t = newHome();
    t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
    engines.watch(t);
    await lockedCapture(t, true);
  });
});
