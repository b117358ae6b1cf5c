/**
 * Counters kept in tally files instead of the store, folded in later by the engine's drain (or `mnemo
 * stats`), on the day they are folded:
 *
 * - A capture the policy skips, from a tool that does not taint, asks nothing of the store but its
 *   `capture.skipped.<reason>` counter, and opening the store for that would cost a skipped Read most of
 *   its run (docs/benchmarks.md, "Hook latency"): such a hook adds one byte to
 *   `spool/<counter>.tally`.
 * - A counter that follows a committed change (a write's `write.stored`, the engine's
 *   `capture.handed_off`, the drain's `capture.spooled`) and meets a busy store is tallied rather than
 *   lost, and never turns the committed change into a failure the caller would retry (a retry would
 *   apply the change twice).
 *
 * The fold claims a file by renaming it and adds its size to the counter. Counter names come from a
 * closed list and are checked on both sides; a tally file stops growing at 1 MiB.
 */
import { appendFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { App } from '../app/open-app.js';
import type { Config } from '../config/config.js';
import { SKIP_REASONS, type SkipReason } from '../core/capture/capture-policy.js';
import { isMemoryError } from '../core/errors.js';
import type { Logger } from '../log/log.js';
import { ensurePrivateDir } from '../platform/private-fs.js';
import { newUlidFactory } from '../platform/ulid-factory.js';
import { REJECT_REASONS } from '../write/write-types.js';
import { spoolPaths } from './spool-paths.js';

/** A tally file stops growing here: it is a counter, not a log. */
export const MAX_TALLY_BYTES = 1024 * 1024;

/** Every counter a tally file may carry: a closed list, checked when tallying and when folding. */
const TALLY_COUNTERS: ReadonlySet<string> = new Set([
  ...SKIP_REASONS.map((reason) => `capture.skipped.${reason}`),
  ...REJECT_REASONS.map((reason) => `capture.skipped.${reason}`),
  ...REJECT_REASONS.map((reason) => `write.rejected.${reason}`),
  'write.stored',
  'write.merged',
  'write.claims_ignored',
  'capture.spooled',
  'capture.handed_off',
  'spool.torn',
  'spool.invalid',
  'spool.failed',
  'spool.refused_file',
]);
const TALLY_FILE = /^([a-z_]+(?:\.[a-z_]+)+)\.tally$/;
const CLAIMED_FILE = /^([a-z_]+(?:\.[a-z_]+)+)~[0-9A-HJKMNP-TV-Z]{26}\.tally$/;
let idFactory: ReturnType<typeof newUlidFactory> | undefined;
/** A monotonic ULID. The factory is made on first use: making it loads the OS random source. */
function nextId(seedTime?: number): string {
  idFactory ??= newUlidFactory();
  return idFactory(seedTime);
}

/** Adds `count` bytes (default one) to `file`, up to its cap. Throws file-system errors. */
export function appendTallyByte(file: string, count = 1): void {
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  const room = Math.min(Math.max(0, Math.floor(count)), MAX_TALLY_BYTES - size);
  if (room > 0) appendFileSync(file, '.'.repeat(room), { mode: 0o600 });
}

/**
 * Adds `count` to `counter` in its tally file. False (logged) for a counter outside the list or when the
 * spool directory is unusable (a full disk, say): the count is then lost, and the log says so.
 */
export function tallyCounter(
  config: Pick<Config, 'home'>,
  counter: string,
  log: Logger,
  count = 1,
): boolean {
  if (!tallied(counter)) {
    log.warn('spool: counter not counted (not a tally counter)', { counter: counter.slice(0, 64) });
    return false;
  }
  const paths = spoolPaths(config.home);
  try {
    ensurePrivateDir(paths.dir);
    appendTallyByte(join(paths.dir, `${counter}.tally`), count);
    return true;
  } catch (error) {
    log.warn('spool: counter not counted', { counter, count, error: String(error) });
    return false;
  }
}

/** Counts a skipped capture in its tally file. False (logged) when the spool directory is unusable. */
export function tallySkip(config: Pick<Config, 'home'>, reason: SkipReason, log: Logger): boolean {
  return tallyCounter(config, `capture.skipped.${reason}`, log);
}

/**
 * Adds `count` to `counter` in the store, or, when the store is busy or out of reach, to its tally file
 * for the next fold. For counters that follow a change already committed: never throws, so the change
 * is never reported as failed (and retried) because its counter could not be written.
 */
export async function countAfterCommit(app: App, counter: string, count = 1): Promise<void> {
  try {
    await app.store.bumpCounter(counter, count);
  } catch (error) {
    if (isMemoryError(error, 'STORE_BUSY') || isMemoryError(error, 'STORE_UNAVAILABLE')) {
      if (tallyCounter(app.config, counter, app.log, count)) return;
    }
    app.log.warn('counter not recorded', { counter, count, error: String(error) });
  }
}

/** True when `name` is a counter a tally file may carry. */
function tallied(counter: string): boolean {
  return TALLY_COUNTERS.has(counter);
}

/** Tally files waiting in `dir`, the spool directory (cheap: one listing). */
export function hasTallies(dir: string): boolean {
  try {
    const names = readdirSync(dir);
    return names.some((name) => TALLY_FILE.test(name) || CLAIMED_FILE.test(name));
  } catch {
    return false;
  }
}

/**
 * Adds every waiting tally to the store's counters and removes it. A file is claimed by an atomic
 * rename first, so two folders (the engine's drain and a `mnemo stats`) never count one twice; a claimed
 * file left by a crash is counted by the next fold. Returns the counts added.
 */
export async function foldTallies(app: App): Promise<number> {
  const { dir } = spoolPaths(app.config.home);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const claimed = names.filter((name) => CLAIMED_FILE.test(name));
  for (const name of names) {
    const counter = TALLY_FILE.exec(name)?.[1];
    if (counter === undefined) continue;
    const target = `${counter}~${nextId()}.tally`;
    try {
      renameSync(join(dir, name), join(dir, target));
      claimed.push(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  let total = 0;
  for (const name of claimed) {
    const counter = CLAIMED_FILE.exec(name)?.[1];
    const file = join(dir, name);
    if (counter === undefined || !tallied(counter)) {
      rmSync(file, { force: true });
      continue;
    }
    const count = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (count > 0) await app.store.bumpCounter(counter, count);
    rmSync(file, { force: true });
    total += count;
  }
  return total;
}
