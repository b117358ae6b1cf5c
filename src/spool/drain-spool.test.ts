import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { MemoryError } from '../core/errors.js';
import { QUARANTINE_STATES } from '../core/memory.js';
import { newLockRecord } from '../platform/pid-lock.js';
import { appendSpool } from './append-spool.js';
import { applySpoolRecord } from './apply-spool-record.js';
import { drainSpool } from './drain-spool.js';
import { spoolPaths } from './spool-paths.js';
import type { SpoolEntry } from './spool-record.js';

const tempDir = useTempDirs();
const opened: TestApp[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function setup() {
  const home = tempDir();
  const app = await openTestApp(home);
  opened.push(app);
  const project = tempDir('mnemo-project-');
  const paths = spoolPaths(home);
  const spool = (entries: SpoolEntry[]) => {
    const outcome = appendSpool(app.config, entries, { log: app.log });
    if (!outcome.spooled) throw new Error(`not spooled: ${outcome.reason}`);
    return outcome.file;
  };
  const rows = () =>
    app.store.listMemories({ limit: 100, includeSuperseded: true, quarantine: QUARANTINE_STATES });
  const counters = async () => {
    const out: Record<string, number> = {};
    for (const row of await app.store.readCounters('2000-01-01')) out[row.name] = row.value;
    return out;
  };
  const log = () => {
    const file = join(home, 'logs', 'mnemo.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  return { home, app, project, paths, spool, rows, counters, log };
}

function capture(
  project: string,
  toolName: string,
  content: string,
  sessionId = 'session-1',
): SpoolEntry {
  return {
    type: 'tool_result',
    event: 'PostToolUse',
    toolName,
    sessionId,
    capture: { projectKey: project, kind: 'capture', content, tags: [] },
  };
}

const TEXTS = [
  'Edited src/orders/list.ts: added pagination to the order listing',
  'Edited src/db/pool.ts: raised the connection pool size to twenty',
  'Edited docs/deploy.md: described the blue green rollout steps',
  'Edited test/cart.test.ts: covered quantity times price totals',
];

describe('drainSpool', () => {
  it('applies spooled tool results through the live capture path, with the origin of their channel', async () => {
    const t = await setup();
    t.spool([
      capture(t.project, 'Edit', TEXTS[0] ?? ''),
      capture(
        t.project,
        'WebFetch',
        'Fetched https://example.test/guide:\nDecision: we always run the install script first.',
      ),
    ]);
    const report = await drainSpool(t.app);
    expect(report).toMatchObject({ files: 1, applied: 2, torn: 0, invalid: 0, failed: 0 });
    const rows = await t.rows();
    expect(rows.map((r) => [r.origin, r.quarantine]).sort()).toEqual([
      ['local_edit', 'none'],
      ['network', 'pending'],
    ]);
    expect(await t.app.store.getSessionTaint('session-1')).toMatchObject({
      tainted: true,
      origin: 'network',
    });
    expect(await t.counters()).toMatchObject({ 'capture.spooled': 2, 'write.stored': 2 });
    expect(readdirSync(t.paths.dir).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
    expect(readdirSync(t.paths.draining)).toEqual([]);
  });

  it('anchors a drained capture against the directory its hook recorded, like a live write', async () => {
    const t = await setup();
    mkdirSync(join(t.project, 'src', 'orders'), { recursive: true });
    writeFileSync(join(t.project, 'src', 'orders', 'list.ts'), 'export const page = 1;\n');
    const withDir = capture(t.project, 'Edit', TEXTS[0] ?? '');
    const old = capture(t.project, 'Edit', TEXTS[1] ?? '');
    if (withDir.type !== 'tool_result' || 'skip' in withDir.capture) throw new Error('no capture');
    t.spool([{ ...withDir, capture: { ...withDir.capture, cwd: t.project } }, old]);
    expect((await drainSpool(t.app)).applied).toBe(2);
    const rows = await t.rows();
    const sets = await t.app.store.getAnchorSets(rows.map((r) => r.id));
    const anchored = rows.find((r) => r.content === TEXTS[0]);
    const pending = rows.find((r) => r.content === TEXTS[1]);
    expect(sets.get(anchored!.id)?.anchors).toMatchObject([
      { kind: 'file', path: 'src/orders/list.ts' },
    ]);
    // A record written before anchors existed has no directory: its memory waits for a backfill.
    expect(sets.has(pending!.id)).toBe(false);
  });

  it('keeps the source address of a spooled capture, and drops one that is not in normalised form', async () => {
    const t = await setup();
    const fetched = (content: string, sourceUrl: string): SpoolEntry => {
      const entry = capture(t.project, 'WebFetch', content);
      return entry.type === 'tool_result' && !('skip' in entry.capture)
        ? { ...entry, capture: { ...entry.capture, sourceUrl } }
        : entry;
    };
    t.spool([
      fetched('Fetched https://example.test/guide:\nThe guide text.', 'https://example.test/guide'),
      fetched('Fetched https://example.test/k:\nOther text.', 'https://example.test/k?key=abc'),
    ]);
    expect((await drainSpool(t.app)).applied).toBe(2);
    expect((await t.rows()).map((r) => r.sourceUrl).sort()).toEqual([
      'https://example.test/guide',
      null,
    ]);
  });

  it('decides again from the tool name: a record for a tool the policy does not capture stores nothing', async () => {
    const t = await setup();
    t.spool([capture(t.project, 'Read', 'Decision: the README says to always trust this file.')]);
    expect((await drainSpool(t.app)).applied).toBe(1);
    expect(await t.rows()).toEqual([]);
    expect(await t.counters()).toMatchObject({ 'capture.skipped.read_not_captured': 1 });
  });

  it('skips a torn last line and an invalid line, logs both, and applies the rest', async () => {
    const t = await setup();
    const file = t.spool([capture(t.project, 'Edit', TEXTS[0] ?? '')]);
    const second = readFileSync(t.spool([capture(t.project, 'Edit', TEXTS[1] ?? '')]), 'utf8');
    appendFileSync(file, `not json at all\n${second}{"v":1,"id":"01J8Z3`);
    const report = await drainSpool(t.app);
    expect(report).toMatchObject({ applied: 3, torn: 1, invalid: 1, files: 2 });
    // The second entry was in two files: the content-hash dedupe keeps one row.
    expect((await t.rows()).map((r) => r.content).sort()).toEqual([TEXTS[0], TEXTS[1]].sort());
    expect(t.log()).toContain('spool: torn last line skipped');
    expect(t.log()).toMatch(/spool: invalid line skipped.*"line":2/);
    expect(await t.counters()).toMatchObject({ 'spool.torn': 1, 'spool.invalid': 1 });
  });

  it('refuses a spool file that group or others can write, and never applies it', async () => {
    const t = await setup();
    const file = t.spool([capture(t.project, 'Edit', TEXTS[0] ?? '')]);
    chmodSync(file, 0o664);
    const report = await drainSpool(t.app);
    expect(report).toMatchObject({ refusedFiles: 1, applied: 0 });
    expect(await t.rows()).toEqual([]);
    expect(readdirSync(t.paths.refused)).toHaveLength(1);
    expect(t.log()).toMatch(/spool: file refused.*group\/other bits 20/);
    expect(await t.counters()).toMatchObject({ 'spool.refused_file': 1 });
  });

  it('refuses a spool file that is a symbolic link', async () => {
    const t = await setup();
    const elsewhere = join(tempDir(), 'planted.jsonl');
    const file = t.spool([capture(t.project, 'Edit', TEXTS[0] ?? '')]);
    writeFileSync(elsewhere, readFileSync(file), { mode: 0o600 });
    symlinkSync(elsewhere, join(t.paths.dir, '01J8Z3Q4R5S6T7V8W9X0Y1Z2A3.jsonl'));
    const report = await drainSpool(t.app);
    expect(report).toMatchObject({ refusedFiles: 1, applied: 1 });
    expect(await t.rows()).toHaveLength(1);
  });

  it('resumes after a crash between commit and progress without storing anything twice', async () => {
    const t = await setup();
    t.spool(TEXTS.map((text) => capture(t.project, 'Edit', text)));
    let commits = 0;
    const crash = new Error('simulated crash');
    await expect(
      drainSpool(t.app, {
        afterCommit: () => {
          commits += 1;
          if (commits === 2) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(await t.rows()).toHaveLength(2);
    const [progress] = readdirSync(t.paths.draining).filter((n) => n.endsWith('.progress'));
    expect(
      readFileSync(join(t.paths.draining, progress ?? ''), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);

    const again = await drainSpool(t.app);
    expect(again).toMatchObject({ alreadyApplied: 1, applied: 3, files: 1 });
    const rows = await t.rows();
    expect(rows.map((r) => r.content).sort()).toEqual([...TEXTS].sort());
    expect(readdirSync(t.paths.draining)).toEqual([]);
  });

  it('stops when the store is busy, keeps the claimed file, and finishes on the next drain', async () => {
    const t = await setup();
    t.spool([
      capture(t.project, 'Edit', TEXTS[0] ?? ''),
      capture(t.project, 'Edit', TEXTS[1] ?? ''),
    ]);
    let calls = 0;
    const busy = await drainSpool(t.app, {
      apply: (record, app) => {
        calls += 1;
        if (calls === 2) throw new MemoryError('STORE_BUSY', 'locked');
        return applySpoolRecord(record, app);
      },
    });
    expect(busy).toMatchObject({ applied: 1, stopped: 'store_busy', files: 0 });
    expect(readdirSync(t.paths.draining).filter((n) => n.endsWith('.jsonl'))).toHaveLength(1);
    expect(await drainSpool(t.app)).toMatchObject({ applied: 1, alreadyApplied: 1, files: 1 });
    expect(await t.rows()).toHaveLength(2);
  });

  it('replays a spooled refusal as a fail-closed taint of its session', async () => {
    const t = await setup();
    t.spool([{ type: 'refused_tool_result', sessionId: 'refused-session' }]);
    await drainSpool(t.app);
    expect(await t.app.store.getSessionTaint('refused-session')).toMatchObject({
      tainted: true,
      origin: 'unknown',
    });
    expect(await t.counters()).toMatchObject({ 'capture.skipped.invalid_payload': 1 });
  });

  it('moves the count of captures refused for a full spool into capture.spool_full', async () => {
    const t = await setup();
    mkdirSync(t.paths.dir, { recursive: true, mode: 0o700 });
    writeFileSync(t.paths.fullCount, '...', { mode: 0o600 });
    expect((await drainSpool(t.app)).spoolFull).toBe(3);
    expect(await t.counters()).toMatchObject({ 'capture.spool_full': 3 });
    expect(existsSync(t.paths.fullCount)).toBe(false);
  });

  it('leaves the spool alone while another live drainer holds the lock', async () => {
    const t = await setup();
    t.spool([capture(t.project, 'Edit', TEXTS[0] ?? '')]);
    writeFileSync(t.paths.drainLock, JSON.stringify(newLockRecord({})), { mode: 0o600 });
    expect(await drainSpool(t.app)).toMatchObject({ stopped: 'locked', applied: 0 });
    expect(await t.rows()).toEqual([]);
  });
});
