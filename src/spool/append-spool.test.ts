import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { createLogger } from '../log/log.js';
import { appendSpool } from './append-spool.js';
import { spoolPaths } from './spool-paths.js';
import type { SpoolEntry } from './spool-record.js';

const tempDir = useTempDirs();
// Assembled at run time so no key-shaped literal sits in the repository.
const FAKE_TOKEN = ['ghp', 'R8x2Kq9Lm4Vb7Nc1Zt6Yw3Hs5Jd0Fg2Pa8Qe'].join('_');

function setup(maxBytes = 16 * 1024 * 1024) {
  const home = tempDir();
  const logFile = join(home, 'logs', 'mnemo.log');
  return {
    config: { home, spool: { maxBytes } },
    deps: {
      log: createLogger({ file: logFile, level: 'debug', clock: { now: () => new Date(0) } }),
    },
    paths: spoolPaths(home),
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}

function edit(content: string, extra: { tags?: string[]; toolName?: string } = {}): SpoolEntry {
  return {
    type: 'tool_result',
    event: 'PostToolUse',
    toolName: extra.toolName ?? 'Edit',
    sessionId: 'session-1',
    capture: { projectKey: '/work/p', kind: 'capture', content, tags: extra.tags ?? [] },
  };
}

describe('appendSpool', () => {
  it('writes one file per call, mode 0600 in a 0700 directory, with a ULID entry id per record', () => {
    const t = setup();
    const outcome = appendSpool(
      t.config,
      [edit('Edited a.ts: one'), edit('Edited b.ts: two')],
      t.deps,
    );
    expect(outcome).toMatchObject({ spooled: true, entries: 2 });
    expect(lstatSync(t.paths.dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(t.paths.dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\.jsonl$/);
    const file = join(t.paths.dir, files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const records = lines.map(
      (line) => JSON.parse(line) as { v: number; id: string; type: string },
    );
    expect(records.map((r) => [r.v, r.type])).toEqual([
      [1, 'tool_result'],
      [1, 'tool_result'],
    ]);
    expect(new Set(records.map((r) => r.id)).size).toBe(2);
  });

  it('redacts secrets before anything touches the disk, and drops a tag that held one', () => {
    const t = setup();
    appendSpool(
      t.config,
      [edit(`Edited .env: TOKEN=${FAKE_TOKEN}`, { tags: ['ok', FAKE_TOKEN] })],
      t.deps,
    );
    const [name] = readdirSync(t.paths.dir);
    const bytes = readFileSync(join(t.paths.dir, name ?? ''), 'utf8');
    expect(bytes).not.toContain(FAKE_TOKEN);
    expect(bytes).toContain('[REDACTED:github_token]');
    expect(JSON.parse(bytes) as unknown).toMatchObject({ capture: { tags: ['ok'] } });
  });

  it('refuses rather than alters a channel field that holds a secret', () => {
    const t = setup();
    const outcome = appendSpool(t.config, [edit('Edited a.ts', { toolName: FAKE_TOKEN })], t.deps);
    expect(outcome).toEqual({ spooled: false, reason: 'unsafe_field' });
    expect(readdirSync(t.paths.dir)).toEqual([]);
    expect(t.log()).not.toContain(FAKE_TOKEN);
  });

  it('refuses, logs and counts a capture once the spool is over its cap', () => {
    const t = setup(65_536);
    const big = 'x'.repeat(30_000);
    expect(appendSpool(t.config, [edit(`Edited a.ts: ${big}`)], t.deps).spooled).toBe(true);
    expect(appendSpool(t.config, [edit(`Edited b.ts: ${big}`)], t.deps).spooled).toBe(true);
    expect(appendSpool(t.config, [edit(`Edited c.ts: ${big}`)], t.deps)).toEqual({
      spooled: false,
      reason: 'spool_full',
    });
    expect(appendSpool(t.config, [edit(`Edited d.ts: ${big}`)], t.deps).spooled).toBe(false);
    expect(readdirSync(t.paths.dir).filter((name) => name.endsWith('.jsonl'))).toHaveLength(2);
    expect(readFileSync(t.paths.fullCount, 'utf8')).toBe('..');
    expect(t.log()).toContain('capture.spool_full');
  });

  it('refuses to write into a spool directory others can write', async () => {
    const t = setup();
    const { chmodSync, mkdirSync } = await import('node:fs');
    mkdirSync(t.paths.dir, { recursive: true });
    chmodSync(t.paths.dir, 0o777);
    expect(appendSpool(t.config, [edit('Edited a.ts: one')], t.deps)).toEqual({
      spooled: false,
      reason: 'unsafe_dir',
    });
    expect(t.log()).toContain('spool: directory refused');
  });
});
