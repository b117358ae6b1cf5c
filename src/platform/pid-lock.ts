/**
 * A lock file naming its holder (pid, start time, a random nonce): one resident engine per home, one
 * spool drainer at a time. The record is written to a temporary file, fsync'd and published with
 * `link()`, which fails when the lock exists, so a lock is never seen half-written. A lock whose holder is
 * gone (the caller decides: dead pid, silent socket) is removed only under a short reclaim guard and only
 * if it is still byte for byte the record judged stale, so two processes reclaiming at once cannot delete
 * a lock the other has just taken.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, statSync } from 'node:fs';

import { writeNewFileSynced } from './private-fs.js';

/** What every lock file holds; users add their own fields. */
export interface PidLockRecord {
  pid: number;
  /** ISO-8601 time the holder took the lock. */
  startedAt: string;
  /** Tells this holder from a later process that reuses its pid. */
  nonce: string;
}

/** The outcome of an attempt: the lock, or the live holder (undefined when its file is unreadable). */
export type LockAttempt<T> = { acquired: true } | { acquired: false; holder: T | undefined };

export interface AcquireOptions<T extends PidLockRecord> {
  /** True when the holder of `record` is gone and its lock may be reclaimed. */
  isStale: (record: T) => boolean | Promise<boolean>;
  /** Validates a parsed lock file; undefined for anything that is not a record of this lock. */
  parse: (value: unknown) => T | undefined;
}

/** An unreadable lock file younger than this is taken as someone else's, still being published. */
const UNREADABLE_GRACE_MS = 2000;
const ATTEMPTS = 40;
const RETRY_MS = 25;

/** A record for this process with the caller's extra fields. */
export function newLockRecord<E extends object>(extra: E): PidLockRecord & E {
  return {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
    ...extra,
  };
}

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isPidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseRaw<T>(
  raw: string | undefined,
  parse: (value: unknown) => T | undefined,
): T | undefined {
  if (raw === undefined) return undefined;
  try {
    return parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** The current holder's record, or undefined when there is no lock or it cannot be read. */
export function readPidLock<T>(
  path: string,
  parse: (value: unknown) => T | undefined,
): T | undefined {
  return parseRaw(readRaw(path), parse);
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function publish(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeNewFileSynced(tmp, text, 0o600);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Takes the reclaim guard, clearing one left by a dead process. False when someone else holds it. */
function takeGuard(guard: string): boolean {
  if (publish(guard, String(process.pid))) return true;
  const holder = Number(readRaw(guard));
  const gone =
    Number.isSafeInteger(holder) && holder > 0
      ? !isPidAlive(holder)
      : ageMs(guard) > UNREADABLE_GRACE_MS;
  if (gone) rmSync(guard, { force: true });
  return false;
}

/**
 * Takes the lock at `path` with `record`, reclaiming a stale one. Resolves `{ acquired: false, holder }`
 * when a live holder has it. Throws only on file-system errors other than contention.
 */
export async function acquirePidLock<T extends PidLockRecord>(
  path: string,
  record: T,
  options: AcquireOptions<T>,
): Promise<LockAttempt<T>> {
  const text = `${JSON.stringify(record)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (publish(path, text)) return { acquired: true };
    const raw = readRaw(path);
    if (raw === undefined) continue;
    const holder = parseRaw(raw, options.parse);
    if (holder === undefined && ageMs(path) < UNREADABLE_GRACE_MS) {
      return { acquired: false, holder: undefined };
    }
    if (holder !== undefined && !(await options.isStale(holder)))
      return { acquired: false, holder };
    const guard = `${path}.reclaim`;
    if (!takeGuard(guard)) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    try {
      // Only the record judged stale is removed: a lock taken since then stays.
      if (readRaw(path) === raw) rmSync(path, { force: true });
    } finally {
      rmSync(guard, { force: true });
    }
  }
  return { acquired: false, holder: readPidLock(path, options.parse) };
}

/** True when the lock at `path` is still the one `nonce` took. */
export function ownsPidLock(path: string, nonce: string): boolean {
  const raw = readRaw(path);
  if (raw === undefined) return false;
  try {
    return (JSON.parse(raw) as { nonce?: unknown }).nonce === nonce;
  } catch {
    return false;
  }
}

/** Removes the lock if it is still the one `nonce` took; true when it was removed. */
export function releasePidLock(path: string, nonce: string): boolean {
  if (!ownsPidLock(path, nonce)) return false;
  rmSync(path, { force: true });
  return true;
}
