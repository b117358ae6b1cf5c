/**
 * Torture: 16 hook processes at a time, 50 captures each, into one store, through the command `mnemo
 * install` registers, once with the resident engine taking the captures and once with every hook writing
 * the SQLite file itself (threat model S2). Each capture carries a unique marker; afterwards the store
 * must hold every marker exactly once, its full-text indexes and vectors must agree with the table, the
 * audit chain must verify, and every hook process must have exited 0 with nothing on stdout.
 *
 * Sizing: 800 hook processes per run is the 16 × 50; each costs ~0.1 s of CPU, so a run takes
 * about a minute on two idle cores. Hooks get a long deadline (as every e2e test does) so the outcome
 * cannot depend on the host's load: a capture that meets a busy store is spooled, never dropped, and
 * the deadline itself is tortured in locked-store.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { HOOK_TEST_ENV } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import {
  installHooks,
  type RegisteredHooks,
  runRegisteredHook,
} from '../helpers/registered-hooks.js';
import { markerCounts, storeState } from '../helpers/store-state.js';
import { captureMarker, markedEdit } from '../helpers/torture-payloads.js';

/** The embedder the test homes use: fast and deterministic. */
const HASH_MODEL = new HashEmbedder().model;
const newHome = useTestHomes();
const engines = useEngines();

const WRITERS = 16;
const CAPTURES = 50;

function hashHome(): TestHome {
  const t = newHome();
  t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  engines.watch(t);
  return t;
}

/** One writer: its captures one after another, as one agent's tool calls arrive. */
async function writer(
  t: TestHome,
  hooks: RegisteredHooks,
  w: number,
  outcomes: string[],
): Promise<void> {
  for (let c = 0; c < CAPTURES; c += 1) {
    const result = await runRegisteredHook(
      t,
      hooks,
      'post-tool-use',
      markedEdit(t.project, w, c),
      HOOK_TEST_ENV,
    );
    if (result.code !== 0 || result.stdout !== '' || result.signal !== null) {
      outcomes.push(
        `writer ${w} capture ${c}: exit ${result.code} ${result.signal ?? ''} stdout ${JSON.stringify(result.stdout.slice(0, 80))}`,
      );
    }
  }
}

async function storm(t: TestHome, hooks: RegisteredHooks): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(t, hooks, w, problems)));
  return problems;
}

const markers = Array.from({ length: WRITERS * CAPTURES }, (_, i) =>
  captureMarker(Math.floor(i / CAPTURES), i % CAPTURES),
);

function logText(t: TestHome): string {
  const file = join(t.home, 'logs', 'mnemo.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

async function expectEveryCaptureOnce(t: TestHome): Promise<void> {
  // The engine embeds every capture in the background; the vector table must end up matching the rows.
  const state = await waitFor(
    'every capture stored and embedded',
    async () => {
      const s = await storeState(t.home);
      return s.memories.length >= markers.length && (s.vectors[HASH_MODEL] ?? 0) >= markers.length
        ? s
        : undefined;
    },
    180_000,
    500,
  );
  const counts = markerCounts(state.memories, markers);
  expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
  expect(state.memories).toHaveLength(markers.length);
  expect(state.memories.every((m) => m.origin === 'local_edit' && m.kind === 'capture')).toBe(true);
  expect(state.problems).toEqual([]);
  expect(state.vectors).toEqual({ [HASH_MODEL]: markers.length });
  // Each memory was created exactly once: one `remember` in its audit trail, never a second write.
  const remembered = [...state.auditActions.values()].map(
    (a) => a.filter((x) => x === 'remember').length,
  );
  expect(remembered.every((n) => n === 1)).toBe(true);
  expect(logText(t)).not.toMatch(/capture is lost|gave up and exited|hook failed/);
}

describe('16 concurrent hook processes × 50 captures into one store', () => {
  it('stores every capture exactly once when every hook writes the SQLite file itself', async () => {
    const t = hashHome();
    const hooks = await installHooks(t);
    expect((await t.run(['stats'])).code).toBe(0);
    expect(await storm(t, hooks)).toEqual([]);
    // Hooks that met the write lock past their short busy wait spooled instead: an engine drains them.
    const spooled = existsSync(join(t.home, 'spool'))
      ? readdirSync(join(t.home, 'spool')).filter((name) => name.endsWith('.jsonl')).length
      : 0;
    const before = await storeState(t.home);
    expect(before.memories.length + spooled).toBe(markers.length);
    expect(before.problems).toEqual([]);
    await engines.start(t, ['--idle-exit', '0']);
    await expectEveryCaptureOnce(t);
    const { counters } = await storeState(t.home);
    expect(counters['write.stored']).toBe(markers.length);
    expect(counters['capture.spooled'] ?? 0).toBe(spooled);
  }, 600_000);

  it('stores every capture exactly once when the engine takes them over its socket', async () => {
    const t = hashHome();
    const hooks = await installHooks(t);
    await engines.start(t, ['--idle-exit', '0']);
    expect(await storm(t, hooks)).toEqual([]);
    await expectEveryCaptureOnce(t);
    const { counters } = await storeState(t.home);
    expect(counters['write.stored']).toBe(markers.length);
    // Every capture went through the engine: handed off, or spooled by it (and drained) when busy.
    expect(
      (counters['capture.handed_off'] ?? 0) + (counters['capture.spooled'] ?? 0),
    ).toBeGreaterThanOrEqual(markers.length);
  }, 600_000);
});
