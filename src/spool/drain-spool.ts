/**
 * Drains the capture spool into the store, exactly once per entry:
 *
 * 1. One drainer at a time (`spool/drain.lock`, reclaimed from a dead pid).
 * 2. A spool file is claimed by an atomic rename into `draining/`; writers never touch a claimed file.
 * 3. Each entry is applied through the live capture path (`applySpoolRecord`), then its id is appended
 *    to `draining/<file>.progress` and fsync'd. A claimed file left by a crash is resumed first, skipping
 *    the ids already in its progress file.
 * 4. The one window this leaves, a crash after an entry's write committed and before its id reached the
 *    progress file, is closed by the store's content-hash dedupe: re-applying the entry finds the same
 *    text in the project and merges instead of adding a row (taint marks are idempotent, and a fix is
 *    only written while one is due).
 *
 * A file another account could have written (wrong owner, group/other write bits, a symlink) is never
 * applied: it is moved to `refused/`, logged and counted. A line that does not parse is skipped and
 * logged; a torn last line (a crash mid-write) is expected and counted as `spool.torn`, never fatal.
 */
import { lstatSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { App } from '../app/open-app.js';
import {
  acquirePidLock,
  isPidAlive,
  newLockRecord,
  type PidLockRecord,
  releasePidLock,
} from '../platform/pid-lock.js';
import { ensurePrivateDir } from '../platform/private-fs.js';
import { newUlidFactory } from '../platform/ulid-factory.js';
import { drainFile, type DrainOptions, type DrainReport, progressName } from './drain-file.js';
import { listSpoolFiles, type SpoolPaths, spoolPaths } from './spool-paths.js';
import { foldTallies, hasTallies } from './spool-tally.js';

export type { DrainOptions, DrainReport } from './drain-file.js';

/** A crashed writer's temporary file older than this is removed. */
const STALE_TMP_MS = 60 * 60 * 1000;
const nextId = newUlidFactory();

function emptyReport(): DrainReport {
  return {
    files: 0,
    applied: 0,
    alreadyApplied: 0,
    failed: 0,
    torn: 0,
    invalid: 0,
    refusedFiles: 0,
    spoolFull: 0,
    tallied: 0,
  };
}

function parseLock(value: unknown): PidLockRecord | undefined {
  const v = value as Partial<PidLockRecord> | null;
  return typeof v?.pid === 'number' &&
    typeof v.startedAt === 'string' &&
    typeof v.nonce === 'string'
    ? { pid: v.pid, startedAt: v.startedAt, nonce: v.nonce }
    : undefined;
}

/** Drains everything drainable now. Never throws for a bad file or entry; throws only on I/O faults. */
export async function drainSpool(app: App, options: DrainOptions = {}): Promise<DrainReport> {
  const report = emptyReport();
  const paths = spoolPaths(app.config.home);
  if (!hasWork(paths)) return report;
  try {
    ensurePrivateDir(paths.dir);
    ensurePrivateDir(paths.draining);
  } catch (error) {
    app.log.error('spool: directory refused; nothing drained', { error: String(error) });
    return { ...report, stopped: 'unsafe_dir' };
  }
  const lock = newLockRecord({});
  const taken = await acquirePidLock(paths.drainLock, lock, {
    parse: parseLock,
    isStale: (holder) => !isPidAlive(holder.pid),
  });
  if (!taken.acquired) return { ...report, stopped: 'locked' };
  try {
    await moveRefusalCount(app, paths, report);
    report.tallied += await foldTallies(app);
    const resumed = listSpoolFiles(paths.draining);
    const fresh = listSpoolFiles(paths.dir).filter((name) => claim(paths, name));
    for (const name of [...resumed, ...fresh]) {
      const done = await drainFile(app, paths, name, report, options);
      if (!done) break;
    }
    removeLeftovers(paths);
  } finally {
    releasePidLock(paths.drainLock, lock.nonce);
  }
  if (report.applied + report.failed + report.refusedFiles > 0 || report.stopped !== undefined) {
    app.log.info('spool drained', { ...report });
  }
  return report;
}

/** Anything to drain: a published or claimed file, or refusals to count. Cheap (no lock, no fsync). */
function hasWork(paths: SpoolPaths): boolean {
  if (statSync(paths.dir, { throwIfNoEntry: false }) === undefined) return false;
  if (listSpoolFiles(paths.dir).length > 0 || listSpoolFiles(paths.draining).length > 0)
    return true;
  if (statSync(paths.fullCount, { throwIfNoEntry: false }) !== undefined) return true;
  if (hasTallies(paths.dir)) return true;
  try {
    return readdirSync(paths.draining).some((name) => name.endsWith('.count'));
  } catch {
    return false;
  }
}

/** Claims a published file by renaming it into `draining/`; false when it vanished meanwhile. */
function claim(paths: SpoolPaths, name: string): boolean {
  try {
    renameSync(join(paths.dir, name), join(paths.draining, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** `full.count` holds one byte per refused capture: claimed like a spool file, then counted. */
async function moveRefusalCount(app: App, paths: SpoolPaths, report: DrainReport): Promise<void> {
  try {
    renameSync(paths.fullCount, join(paths.draining, `full-${nextId()}.count`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const name of readdirSync(paths.draining).filter((n) => /^full-.*\.count$/.test(n))) {
    const file = join(paths.draining, name);
    const count = statSync(file).size;
    if (count > 0) await app.store.bumpCounter('capture.spool_full', count);
    report.spoolFull += count;
    rmSync(file, { force: true });
  }
}

/** Removes crashed writers' temporary files and progress files whose spool file is gone. */
function removeLeftovers(paths: SpoolPaths): void {
  const now = Date.now();
  for (const name of readdirSync(paths.dir)) {
    if (!name.startsWith('.tmp-')) continue;
    const file = join(paths.dir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat !== undefined && now - stat.mtimeMs > STALE_TMP_MS) rmSync(file, { force: true });
  }
  const live = new Set(listSpoolFiles(paths.draining).map(progressName));
  for (const name of readdirSync(paths.draining)) {
    if (name.endsWith('.progress') && !live.has(name))
      rmSync(join(paths.draining, name), { force: true });
  }
}
