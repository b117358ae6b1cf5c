/**
 * Torture: a full disk, on a real small filesystem (a tmpfs mounted for the test, so root only; the test
 * says so and is skipped where it cannot mount one). The store's home sits on it and a filler file takes
 * all but a little of its space. Writes through the CLI then fail with a clear, non-internal error and
 * nothing half-written: once space is freed the store passes its integrity check and holds exactly the
 * memories whose `remember` succeeded. Capture hooks exit 0 with nothing on stdout; what they spooled is
 * whole (no partial file, every line parses) and stored exactly once by the engine afterwards.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { useEngines, waitFor } from '../helpers/engine-process.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { installHooks, runRegisteredHook } from '../helpers/registered-hooks.js';
import { markerCounts, storeState } from '../helpers/store-state.js';
import { captureMarker, markedEdit } from '../helpers/torture-payloads.js';

const newHome = useTestHomes();
const engines = useEngines();

const FS_BYTES = 8 * 1024 * 1024;
/** Space left beside the filler: about a dozen memories fit (each grows the WAL), then the disk is full. */
const LEFT_BYTES = 1024 * 1024;

function canMount(): boolean {
  return process.getuid?.() === 0;
}

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) {
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // Already unmounted.
    }
  }
});

/** Mounts a tmpfs of FS_BYTES at the home's parent and moves the home there; false when it cannot. */
function homeOnSmallDisk(t: TestHome): boolean {
  const dir = join(t.home, '..', 'small-disk');
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${FS_BYTES},mode=0700`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
  } catch {
    return false;
  }
  mounted.push(dir);
  t.home = join(dir, 'mnemo-home');
  t.dbPath = join(t.home, 'mnemo.db');
  t.env['MNEMO_HOME'] = t.home;
  return true;
}

function fillDisk(dir: string): string {
  const stats = statfsSync(dir);
  const free = Number(stats.bavail) * Number(stats.bsize);
  const filler = join(dir, 'filler');
  writeFileSync(filler, Buffer.alloc(Math.max(0, free - LEFT_BYTES), 7));
  return filler;
}

/** A text the novelty gate cannot merge with another: distinct words throughout. */
function uniqueText(n: number): string {
  const words: string[] = [];
  for (let i = 0; i < 900; i += 1) words.push(`w${n}x${(i * 7919 + n * 104729) % 99991}`);
  return `fulldisk${n.toString().padStart(4, '0')} ${words.join(' ')}`;
}

function spoolFiles(home: string): string[] {
  const dir = join(home, 'spool');
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe.skipIf(!canMount())('a full disk (tmpfs; needs root)', () => {
  it('fails writes cleanly, keeps the store whole, and the hooks quiet', async () => {
    const t = newHome();
    t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
    if (!homeOnSmallDisk(t)) {
      console.log('full-disk test skipped: this machine cannot mount a tmpfs');
      return;
    }
    engines.watch(t);
    const hooks = await installHooks(t);
    expect((await t.run(['stats'])).code).toBe(0);
    const filler = fillDisk(join(t.home, '..'));

    const stored: string[] = [];
    let failure: { code: number | null; stderr: string } | undefined;
    for (let n = 0; n < 200 && failure === undefined; n += 1) {
      const result = await t.run(['remember', uniqueText(n)]);
      if (result.code === 0) stored.push(`fulldisk${n.toString().padStart(4, '0')}`);
      else failure = { code: result.code, stderr: result.stderr };
    }
    expect(failure, 'the disk never filled').toBeDefined();
    // A user error with a next step, not an internal fault (exit 2).
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('is full');
    expect(failure?.stderr).toContain('Nothing of this write was stored');

    const markers = [1, 2, 3].map((n) => captureMarker(900, n));
    for (const n of [1, 2, 3]) {
      const result = await runRegisteredHook(
        t,
        hooks,
        'post-tool-use',
        markedEdit(t.project, 900, n),
        {
          MNEMO_HOOK_DEADLINE_MS: '60000',
        },
      );
      expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({
        code: 0,
        signal: null,
        stdout: '',
      });
    }
    // What the spool holds is whole: no file mid-write, every line a record.
    const files = spoolFiles(t.home);
    expect(files.filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    const spooled = new Set<string>();
    for (const name of files.filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(t.home, 'spool', name), 'utf8').split('\n')) {
        if (line === '') continue;
        const text = JSON.stringify(JSON.parse(line));
        for (const marker of markers) if (text.includes(marker)) spooled.add(marker);
      }
    }

    rmSync(filler);
    const state = await storeState(t.home);
    expect(state.problems).toEqual([]);
    const found = state.memories
      .map((m) => /^fulldisk\d{4}/.exec(m.content)?.[0])
      .filter((m): m is string => m !== undefined);
    expect(found.sort()).toEqual([...stored].sort());

    // The engine stores what was spooled, exactly once; nothing is stored twice.
    await engines.start(t, ['--idle-exit', '0']);
    const after = await waitFor(
      'the spool drained',
      async () =>
        spoolFiles(t.home).some((f) => f.endsWith('.jsonl')) ? undefined : storeState(t.home),
      60_000,
      200,
    );
    const counts = markerCounts(after.memories, markers);
    for (const marker of markers) {
      if (spooled.has(marker)) expect(counts.get(marker), marker).toBe(1);
      expect(counts.get(marker) ?? 0, marker).toBeLessThanOrEqual(1);
    }
    expect(after.problems).toEqual([]);
    console.log(
      `full disk: ${stored.length} remembers fit, then "${failure?.stderr.trim().slice(0, 80)}"; ` +
        `${spooled.size} of 3 hook captures spooled on the full disk`,
    );
  });
});
