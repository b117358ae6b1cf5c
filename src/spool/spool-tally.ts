/**
 * Counters a hook keeps without opening the store: a capture the policy skips, from a tool that does not
 * taint, asks nothing of the store but its `capture.skipped.<reason>` counter, and opening the store for
 * that would cost a skipped Read most of its run (docs/benchmarks.md, "Hook latency"). Such a hook adds
 * one byte to `spool/<counter>.tally`; the engine's next drain (or `mnemo stats`) claims the file by
 * renaming it and adds its size to the counter, on the day it is folded in. Counter names come from a
 * closed list and are checked on both sides; a tally file stops growing at 1 MiB.
 */
import { appendFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { monotonicFactory } from 'ulid';

import type { App } from '../app/open-app.js';
import type { Config } from '../config/config.js';
import { SKIP_REASONS, type SkipReason } from '../core/capture/capture-policy.js';
import type { Logger } from '../log/log.js';
import { ensurePrivateDir } from '../platform/private-fs.js';
import { spoolPaths } from './spool-paths.js';

/** A tally file stops growing here: it is a counter, not a log. */
export const MAX_TALLY_BYTES = 1024 * 1024;

const SKIP_COUNTER = /^capture\.skipped\.([a-z_]+)$/;
const TALLY_FILE = /^(capture\.skipped\.[a-z_]+)\.tally$/;
const CLAIMED_FILE = /^(capture\.skipped\.[a-z_]+)~[0-9A-HJKMNP-TV-Z]{26}\.tally$/;
let idFactory: ReturnType<typeof monotonicFactory> | undefined;
/** A monotonic ULID. The factory is made on first use: making it loads the OS random source. */
function nextId(seedTime?: number): string {
  idFactory ??= monotonicFactory();
  return idFactory(seedTime);
}

/** Adds one byte to `file` unless it is at its cap. Throws file-system errors. */
export function appendTallyByte(file: string): void {
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size < MAX_TALLY_BYTES) appendFileSync(file, '.', { mode: 0o600 });
}

/** Counts a skipped capture in its tally file. False (logged) when the spool directory is unusable. */
export function tallySkip(config: Pick<Config, 'home'>, reason: SkipReason, log: Logger): boolean {
  const paths = spoolPaths(config.home);
  try {
    ensurePrivateDir(paths.dir);
    appendTallyByte(join(paths.dir, `capture.skipped.${reason}.tally`));
    return true;
  } catch (error) {
    log.warn('spool: skip not counted', { reason, error: String(error) });
    return false;
  }
}

/** True when `name` is a counter a tally file may carry. */
function tallied(counter: string): boolean {
  const reason = SKIP_COUNTER.exec(counter)?.[1];
  return reason !== undefined && (SKIP_REASONS as readonly string[]).includes(reason);
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
