/**
 * Drains one claimed spool file (see drain-spool.ts for the whole protocol): checks that the file is
 * this user's and not writable by others, applies each entry not yet in its progress file, records each
 * applied id with an fsync, and removes the file and its progress once every entry is accounted for.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

import * as v from 'valibot';

import type { App } from '../app/open-app.js';
import { isMemoryError } from '../core/errors.js';
import { FOREIGN_WRITE_BITS, fsyncDir, privacyProblem } from '../platform/private-fs.js';
import { MAX_SPOOL_FILE_BYTES } from './append-spool.js';
import { applySpoolRecord } from './apply-spool-record.js';
import type { SpoolPaths } from './spool-paths.js';
import { type SpoolRecord, spoolRecordSchema } from './spool-record.js';
import { countAfterCommit } from './spool-tally.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** What one drain did. */
export interface DrainReport {
  /** Spool files fully drained and removed. */
  files: number;
  applied: number;
  /** Entries skipped because their progress file already listed them (a resumed file). */
  alreadyApplied: number;
  /** Entries whose apply threw something other than an out-of-reach store: recorded, not retried. */
  failed: number;
  torn: number;
  invalid: number;
  refusedFiles: number;
  /** Captures refused at spool time because the spool was full (moved into the counters). */
  spoolFull: number;
  /** Skipped captures counted in tally files by hooks that did not open the store (spool-tally.ts). */
  tallied: number;
  /** Why the drain ended before the spool was empty. */
  stopped?: 'store_busy' | 'locked' | 'unsafe_dir' | 'requested';
}

export interface DrainOptions {
  /** Applies one record; default {@link applySpoolRecord}, the live capture path. */
  apply?: (record: SpoolRecord, app: App) => Promise<void>;
  /**
   * Called after an entry was applied and before its progress is recorded: the crash window the
   * content-hash dedupe covers. Tests end the process here to prove nothing is stored twice.
   */
  afterCommit?: (entryId: string) => void;
  /** Checked between entries; true ends the drain cleanly (the file stays claimed and resumes later). */
  shouldStop?: () => boolean;
}

function readProgress(file: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
  // A torn last line names no complete id: that entry is applied again, and deduped.
  return new Set(
    text
      .split('\n')
      .map((line) => line.split(' ')[0] ?? '')
      .filter((id) => ULID.test(id)),
  );
}

/** Opens a claimed file without following links and checks it is this user's and not foreign-writable. */
function openChecked(file: string): { fd: number; problem?: string } {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const stat = fstatSync(fd);
  const problem =
    privacyProblem(stat, { kind: 'file', forbiddenBits: FOREIGN_WRITE_BITS }) ??
    (stat.size > 4 * MAX_SPOOL_FILE_BYTES
      ? `is ${stat.size} bytes, over the spool file limit`
      : undefined);
  return problem === undefined ? { fd } : { fd, problem };
}

function refuseFile(
  app: App,
  paths: SpoolPaths,
  name: string,
  problem: string,
  report: DrainReport,
): void {
  mkdirSync(paths.refused, { recursive: true, mode: 0o700 });
  renameSync(join(paths.draining, name), join(paths.refused, name));
  rmSync(join(paths.draining, progressName(name)), { force: true });
  report.refusedFiles += 1;
  app.log.error(
    'spool: file refused, not applied (it could have been written by another account)',
    {
      file: join(paths.refused, name),
      problem,
    },
  );
}

/** The progress file of a claimed spool file. */
export function progressName(name: string): string {
  return name.replace(/\.jsonl$/, '.progress');
}

/** A drain counter: never throws, so a busy store cannot make the drain re-apply an entry (spool-tally.ts). */
function count(app: App, name: string): Promise<void> {
  return countAfterCommit(app, name);
}

/** Drains one claimed file. False when the drain must stop (store out of reach, or asked to). */
export async function drainFile(
  app: App,
  paths: SpoolPaths,
  name: string,
  report: DrainReport,
  options: DrainOptions,
): Promise<boolean> {
  const file = join(paths.draining, name);
  let opened: { fd: number; problem?: string };
  try {
    opened = openChecked(file);
  } catch (error) {
    // A symbolic link (ELOOP with O_NOFOLLOW) or an unreadable file: never applied.
    refuseFile(app, paths, name, String((error as Error).message), report);
    await count(app, 'spool.refused_file');
    return true;
  }
  let text: string;
  try {
    text = opened.problem === undefined ? readFileSync(opened.fd, 'utf8') : '';
  } finally {
    closeSync(opened.fd);
  }
  if (opened.problem !== undefined) {
    refuseFile(app, paths, name, opened.problem, report);
    await count(app, 'spool.refused_file');
    return true;
  }
  const progressFile = join(paths.draining, progressName(name));
  const applied = readProgress(progressFile);
  const progress = openSync(progressFile, 'a', 0o600);
  const apply = options.apply ?? applySpoolRecord;
  try {
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const last = index === lines.length - 1;
      const record = parseLine(line);
      if (typeof record === 'string') {
        // Only an unterminated last line that is not even JSON is a torn write; anything else is invalid.
        if (last && record === 'not_json') {
          report.torn += 1;
          app.log.warn('spool: torn last line skipped (a crash mid-write)', {
            file: name,
            bytes: line.length,
          });
          await count(app, 'spool.torn');
        } else {
          report.invalid += 1;
          app.log.warn('spool: invalid line skipped', { file: name, line: index + 1 });
          await count(app, 'spool.invalid');
        }
        continue;
      }
      if (applied.has(record.id)) {
        report.alreadyApplied += 1;
        continue;
      }
      if (options.shouldStop?.() === true) {
        report.stopped = 'requested';
        return false;
      }
      let status = 'applied';
      try {
        await apply(record, app);
      } catch (error) {
        if (isMemoryError(error, 'STORE_BUSY') || isMemoryError(error, 'STORE_UNAVAILABLE')) {
          report.stopped = 'store_busy';
          app.log.info('spool: store out of reach; the drain resumes later', { code: error.code });
          return false;
        }
        // A record that fails for another reason would fail again: recorded and not retried forever.
        status = 'failed';
        report.failed += 1;
        app.log.error('spool: entry failed; skipped', {
          file: name,
          entry: record.id,
          error: String(error),
        });
        await count(app, 'spool.failed');
      }
      if (status === 'applied') {
        report.applied += 1;
        options.afterCommit?.(record.id);
      }
      writeSync(progress, `${record.id} ${status}\n`);
      fsyncSync(progress);
      applied.add(record.id);
      if (status === 'applied' && record.type === 'tool_result')
        await count(app, 'capture.spooled');
    }
  } finally {
    closeSync(progress);
  }
  rmSync(file, { force: true });
  fsyncDir(paths.draining);
  rmSync(progressFile, { force: true });
  report.files += 1;
  return true;
}

function parseLine(line: string): SpoolRecord | 'not_json' | 'not_a_record' {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return 'not_json';
  }
  const parsed = v.safeParse(spoolRecordSchema, json);
  return parsed.success ? parsed.output : 'not_a_record';
}
