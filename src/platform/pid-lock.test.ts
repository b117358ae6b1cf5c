import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import {
  acquirePidLock,
  isPidAlive,
  newLockRecord,
  ownsPidLock,
  type PidLockRecord,
  readPidLock,
  releasePidLock,
} from './pid-lock.js';

const tempDir = useTempDirs();

const parse = (value: unknown): PidLockRecord | undefined => {
  const v = value as Partial<PidLockRecord>;
  return typeof v.pid === 'number' && typeof v.nonce === 'string'
    ? (v as PidLockRecord)
    : undefined;
};
const deadPidIsStale = { parse, isStale: (h: PidLockRecord) => !isPidAlive(h.pid) };

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('pid lock', () => {
  it('is taken once; a second taker sees the holder', async () => {
    const path = join(tempDir(), 'x.lock');
    const first = newLockRecord({});
    expect(await acquirePidLock(path, first, deadPidIsStale)).toEqual({ acquired: true });
    const second = newLockRecord({});
    expect(await acquirePidLock(path, second, deadPidIsStale)).toEqual({
      acquired: false,
      holder: first,
    });
    expect(ownsPidLock(path, first.nonce)).toBe(true);
    expect(ownsPidLock(path, second.nonce)).toBe(false);
  });

  it('reclaims the lock of a dead pid', async () => {
    const path = join(tempDir(), 'x.lock');
    const pid = deadPid();
    expect(isPidAlive(pid)).toBe(false);
    writeFileSync(path, JSON.stringify({ pid, startedAt: '2020-01-01T00:00:00Z', nonce: 'old' }));
    const mine = newLockRecord({ extra: 1 });
    expect(await acquirePidLock(path, mine, deadPidIsStale)).toEqual({ acquired: true });
    expect(readPidLock(path, parse)).toEqual(mine);
  });

  it('lets exactly one of many concurrent takers reclaim a stale lock', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), startedAt: 'x', nonce: 'old' }));
    const records = Array.from({ length: 8 }, () => newLockRecord({}));
    const results = await Promise.all(records.map((r) => acquirePidLock(path, r, deadPidIsStale)));
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
    const winner = records[results.findIndex((r) => r.acquired)];
    expect(readPidLock(path, parse)?.nonce).toBe(winner?.nonce);
  });

  it('treats a fresh unreadable lock as held and an old one as stale', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, '{"pid":');
    expect(await acquirePidLock(path, newLockRecord({}), deadPidIsStale)).toEqual({
      acquired: false,
      holder: undefined,
    });
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    expect(await acquirePidLock(path, newLockRecord({}), deadPidIsStale)).toEqual({
      acquired: true,
    });
  });

  it('releases only its own lock', async () => {
    const path = join(tempDir(), 'x.lock');
    const mine = newLockRecord({});
    await acquirePidLock(path, mine, deadPidIsStale);
    expect(releasePidLock(path, 'someone-else')).toBe(false);
    expect(existsSync(path)).toBe(true);
    expect(releasePidLock(path, mine.nonce)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(releasePidLock(path, mine.nonce)).toBe(false);
  });

  it('publishes a complete record, never a partial one', async () => {
    const path = join(tempDir(), 'x.lock');
    await acquirePidLock(path, newLockRecord({ socket: '/s' }), deadPidIsStale);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      pid: process.pid,
      socket: '/s',
    });
  });
});
