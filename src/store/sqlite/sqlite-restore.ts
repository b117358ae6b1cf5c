/**
 * `mnemo restore` for the SQLite store: puts a backup that passes its own integrity check in place of
 * the store file. The file it replaces (and its -wal/-shm, which would otherwise be replayed onto the
 * restored copy) is renamed aside, never deleted; a backup that fails its check is refused. The copy is
 * written under a temporary name, synced, then renamed over the store, so a crash leaves either the old
 * file or the restored one, never a mix.
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import { type BackupCheck, checkBackup } from './sqlite-backup.js';
import { backupStamp, listBackups } from './sqlite-backup-files.js';

export interface RestoreOptions {
  /** The store file to restore. */
  dbPath: string;
  /** A backup to restore; default: the newest backup that passes its check. */
  from?: string | undefined;
  clock: Clock;
}

export interface RestoreReport {
  /** The backup restored and what its check found in it. */
  restored: BackupCheck;
  /** Where the replaced store file (and its -wal/-shm) now are. */
  keptAside: string[];
  /** Newer backups passed over because they failed their check. */
  skipped: { path: string; problems: string[] }[];
}

const COMPANIONS = ['', '-wal', '-shm', '-journal'] as const;

/** Throws NOT_FOUND when there is no backup, CHECK_FAILED when none (or not `from`) passes its check. */
export function restoreSqliteStore(options: RestoreOptions): RestoreReport {
  const dbPath = resolve(options.dbPath);
  const from = options.from === undefined ? undefined : resolve(options.from);
  const chosen = from === undefined ? newestGoodBackup(dbPath) : requireGood(from);
  const stamp = backupStamp(options.clock.now());
  const partial = `${dbPath}.restore-${stamp}.partial`;
  copyFileSync(chosen.restored.path, partial);
  syncFile(partial);
  const keptAside: string[] = [];
  for (const suffix of COMPANIONS) {
    const current = `${dbPath}${suffix}`;
    if (!existsSync(current)) continue;
    const aside = `${dbPath}.before-restore-${stamp}${suffix}`;
    renameSync(current, aside);
    keptAside.push(aside);
  }
  try {
    renameSync(partial, dbPath);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  chmodSync(dbPath, 0o600);
  syncFile(dirname(dbPath));
  return { ...chosen, keptAside };
}

function requireGood(path: string): Omit<RestoreReport, 'keptAside'> {
  if (!existsSync(path)) {
    throw new MemoryError(
      'NOT_FOUND',
      `No backup at ${path}. \`mnemo restore\` without --from picks the newest good one.`,
    );
  }
  const check = checkBackup(path);
  if (check.problems.length > 0) {
    throw new MemoryError(
      'CHECK_FAILED',
      `Refusing to restore ${path}: it fails its own integrity check (${check.problems.slice(0, 3).join('; ')}). ` +
        'The store was not touched. Pick another backup (`mnemo doctor --verify` lists them).',
      { details: { path, problems: check.problems } },
    );
  }
  return { restored: check, skipped: [] };
}

function newestGoodBackup(dbPath: string): Omit<RestoreReport, 'keptAside'> {
  const backups = listBackups(dbPath);
  if (backups.length === 0) {
    throw new MemoryError(
      'NOT_FOUND',
      `No backups of ${dbPath} found (they sit beside it as ${dbPath}.bak-*; the engine takes one a day, ` +
        'and every migration takes one first). Nothing was changed.',
      { details: { path: dbPath } },
    );
  }
  const skipped: RestoreReport['skipped'] = [];
  for (const backup of backups) {
    const check = checkBackup(backup.path);
    if (check.problems.length === 0) return { restored: check, skipped };
    skipped.push({ path: backup.path, problems: check.problems });
  }
  throw new MemoryError(
    'CHECK_FAILED',
    `None of the ${backups.length} backups of ${dbPath} passes its integrity check ` +
      `(${skipped.map((s) => `${s.path}: ${s.problems[0] ?? ''}`).join('; ')}). Nothing was changed.`,
    { details: { path: dbPath, skipped } },
  );
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
