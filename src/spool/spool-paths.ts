/**
 * The spool's layout inside `$MNEMO_HOME/spool` (mode 0700):
 *
 *   <ULID>.jsonl            a published spool file (one or more records), mode 0600, never changed again
 *   .tmp-<ULID>-<pid>       a file being written; published by rename once fsync'd
 *   draining/<ULID>.jsonl   a file claimed by the drainer (atomic rename out of the spool)
 *   draining/<ULID>.progress  the entry ids applied from it, one per line, fsync'd per entry
 *   refused/<ULID>.jsonl    a file refused for its owner or mode, kept for inspection
 *   full.count              one byte per capture refused because the spool was full
 *   drain.lock              the drainer's lock (pid, start time)
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The spool's paths for one home. */
export interface SpoolPaths {
  dir: string;
  draining: string;
  refused: string;
  fullCount: string;
  drainLock: string;
}

/** The spool of `home`. */
export function spoolPaths(home: string): SpoolPaths {
  const dir = join(home, 'spool');
  return {
    dir,
    draining: join(dir, 'draining'),
    refused: join(dir, 'refused'),
    fullCount: join(dir, 'full.count'),
    drainLock: join(dir, 'drain.lock'),
  };
}

/** Published spool files in `dir`, oldest first (ULID names sort by time). [] when `dir` is missing. */
export function listSpoolFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl') && !name.startsWith('.'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Files and bytes waiting in the spool, claimed ones included: what the size cap is measured on. */
export function spoolUsage(paths: SpoolPaths): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const dir of [paths.dir, paths.draining]) {
    for (const name of listSpoolFiles(dir)) {
      try {
        bytes += statSync(join(dir, name)).size;
        files += 1;
      } catch {
        // Claimed or drained between the listing and the stat: no longer waiting.
      }
    }
  }
  return { files, bytes };
}

/**
 * How long the oldest file still waiting in the spool (claimed ones included) has waited, from its
 * modification time; undefined when none waits.
 */
export function oldestWaitingMs(paths: SpoolPaths, now = Date.now()): number | undefined {
  let oldest: number | undefined;
  for (const dir of [paths.dir, paths.draining]) {
    const first = listSpoolFiles(dir)[0];
    if (first === undefined) continue;
    try {
      const at = statSync(join(dir, first)).mtimeMs;
      oldest = oldest === undefined ? at : Math.min(oldest, at);
    } catch {
      // Claimed or drained between the listing and the stat: no longer waiting.
    }
  }
  return oldest === undefined ? undefined : Math.max(0, now - oldest);
}
