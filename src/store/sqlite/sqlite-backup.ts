/**
 * The daily backup of the SQLite store and the check of any backup (threat model S1, S3): a `VACUUM INTO`
 * copy beside the database once a day while the engine runs (names: sqlite-backup-files.ts; the copy
 * before each migration is sqlite-migrate.ts's). A new daily copy is checked (pages, full-text indexes,
 * audit chain) before older ones are rotated away, so a damaged store never pushes the last good copy
 * out. The copy is taken over a connection of its own (a read transaction: writers carry on in WAL mode).
 */
import { renameSync, rmSync } from 'node:fs';

import { MemoryError } from '../../core/errors.js';
import type { Clock } from '../../ports/clock.js';
import { connectSqlite } from './open-sqlite-store.js';
import {
  backupTarget,
  isDailyBackupDue,
  listBackups,
  rotateBackups,
} from './sqlite-backup-files.js';
import { translateSqliteError } from './sqlite-errors.js';
import { integrityProblems } from './sqlite-integrity.js';
import type { SqliteLike } from './sqlite-like.js';
import { MIGRATIONS } from './sqlite-schema.js';

/** What a backup file holds and whether it passes its own integrity check. */
export interface BackupCheck {
  readonly path: string;
  readonly schemaVersion: number;
  readonly memories: number;
  readonly auditEntries: number;
  /** One line per problem; `[]` when the copy is sound. */
  readonly problems: string[];
}

/**
 * Opens, checks and closes a backup (or any store file) without changing its contents: schema version,
 * counts, and every integrity problem (pages, full-text indexes, vectors, audit chain).
 */
export function checkBackup(path: string): BackupCheck {
  const empty = { path, schemaVersion: 0, memories: 0, auditEntries: 0 };
  let db: SqliteLike;
  try {
    db = connectSqlite(path, { fileMustExist: true });
  } catch (error) {
    return { ...empty, problems: [describe(error, path)] };
  }
  try {
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number })
      .user_version;
    const latest = MIGRATIONS.at(-1)?.version ?? 0;
    if (version === 0 || version > latest) {
      const why =
        version === 0
          ? 'it is not a mnemo store'
          : `its schema v${version} is newer than this mnemo`;
      return { ...empty, schemaVersion: version, problems: [why] };
    }
    const problems = integrityProblems(db);
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      path,
      schemaVersion: version,
      memories: count('memories'),
      auditEntries: count('audit_log'),
      problems,
    };
  } catch (error) {
    return { ...empty, problems: [describe(error, path)] };
  } finally {
    db.close();
  }
}

function describe(error: unknown, path: string): string {
  const translated = translateSqliteError(error, path);
  const message = translated instanceof Error ? translated.message : String(translated);
  return message.split('. ')[0] ?? message;
}

export interface DailyBackupReport {
  /** The new copy, or null when the newest daily copy is less than a day old. */
  taken: string | null;
  /** The new copy's check (counts; its problems are always `[]`: a failing copy is not kept). */
  check: BackupCheck | null;
  /** The newest daily copy before this call, if any: the reason nothing was taken when not due. */
  previous: { path: string; takenAt: string } | null;
  /** Older copies deleted by rotation. */
  removed: string[];
}

/**
 * Takes a daily copy when the newest is a day old or more (or there is none, or `force`), checks it,
 * then rotates. A copy that fails its check is deleted and reported as CHECK_FAILED: the store itself
 * is damaged, and the older copies are the way back, so none of them is rotated away.
 */
export function takeDailyBackupIfDue(
  dbPath: string,
  clock: Clock,
  options: { force?: boolean } = {},
): DailyBackupReport {
  const now = clock.now();
  const newest = listBackups(dbPath).find((b) => b.kind === 'daily');
  const previous =
    newest === undefined ? null : { path: newest.path, takenAt: newest.takenAt.toISOString() };
  if (options.force !== true && !isDailyBackupDue(newest, now)) {
    return { taken: null, check: null, previous, removed: [] };
  }
  const target = backupTarget(dbPath, 'daily', now);
  const partial = `${target}.partial`;
  let source: SqliteLike | undefined;
  try {
    source = connectSqlite(dbPath, { fileMustExist: true });
    source.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw translateSqliteError(error, dbPath);
  } finally {
    source?.close();
  }
  const check = checkBackup(partial);
  if (check.problems.length > 0) {
    rmSync(partial, { force: true });
    throw new MemoryError(
      'CHECK_FAILED',
      `The daily backup of ${dbPath} failed its integrity check (${check.problems.slice(0, 3).join('; ')}); ` +
        'it was not kept and no older backup was removed. Run `mnemo doctor`.',
      { details: { path: dbPath, problems: check.problems } },
    );
  }
  // Only a checked copy gets a backup's name: a crash mid-copy leaves a `.partial`, never a bad backup.
  renameSync(partial, target);
  return {
    taken: target,
    check: { ...check, path: target },
    previous,
    removed: rotateBackups(dbPath),
  };
}
