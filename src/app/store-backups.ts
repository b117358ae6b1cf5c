/**
 * Backups and restore of the configured store, for the engine, the doctor and `mnemo restore`. They
 * exist for the embedded SQLite store only: a PostgreSQL store is the server's to back up (pg_dump,
 * base backups, point-in-time recovery), and mnemo never replaces a server's database under it.
 * Loads the SQLite modules lazily, like the store itself (open-app.ts).
 */
import type { Config } from '../config/config.js';
import { MemoryError } from '../core/errors.js';
import type { Clock } from '../ports/clock.js';
import type { BackupCheck, DailyBackupReport } from '../store/sqlite/sqlite-backup.js';
import type { BackupFile } from '../store/sqlite/sqlite-backup-files.js';
import type { RestoreReport } from '../store/sqlite/sqlite-restore.js';

export type { BackupCheck, BackupFile, DailyBackupReport, RestoreReport };

export interface StoreBackups {
  /** The store file the backups are of. */
  readonly dbPath: string;
  /** Newest first. */
  list(): BackupFile[];
  /** Opens a backup and runs the store's integrity check on it (pages, indexes, audit chain). */
  check(path: string): BackupCheck;
  /** Whether another daily copy is due, `newest` being the newest daily one (if any). */
  isDue(newest: BackupFile | undefined, clock: Clock): boolean;
  /** A checked daily copy when the newest is a day old or more (or `force`), then rotation. */
  takeDailyIfDue(clock: Clock, options?: { force?: boolean }): DailyBackupReport;
}

/** What `mnemo restore` says for a PostgreSQL store. */
export const POSTGRES_RESTORE_REFUSAL =
  'mnemo restore works on the embedded SQLite store only. This home uses PostgreSQL ' +
  '(MNEMO_DATABASE_URL): restore it with the server’s own tools (pg_restore from a pg_dump, or ' +
  'point-in-time recovery from base backups and WAL archives), then run `mnemo doctor --verify`.';

/** What `mnemo backup` says for a PostgreSQL store. */
export const POSTGRES_BACKUP_REFUSAL =
  'mnemo backup works on the embedded SQLite store only. This home uses PostgreSQL ' +
  '(MNEMO_DATABASE_URL): back it up with the server’s own tools (pg_dump, or base backups with WAL ' +
  'archiving for point-in-time recovery).';

/** The backups of the configured store, or null when it is PostgreSQL (the server's to back up). */
export async function storeBackups(config: Config): Promise<StoreBackups | null> {
  if (config.databaseUrl !== null) return null;
  const [backup, files] = await Promise.all([
    import('../store/sqlite/sqlite-backup.js'),
    import('../store/sqlite/sqlite-backup-files.js'),
  ]);
  const dbPath = config.databasePath;
  return {
    dbPath,
    list: () => files.listBackups(dbPath),
    isDue: (newest, clock) => files.isDailyBackupDue(newest, clock.now()),
    check: (path) => backup.checkBackup(path),
    takeDailyIfDue: (clock, options) => backup.takeDailyBackupIfDue(dbPath, clock, options),
  };
}

/** Restores the SQLite store from `from` or its newest good backup; UNSUPPORTED on PostgreSQL. */
export async function restoreStore(
  config: Config,
  options: { from?: string | undefined; clock: Clock },
): Promise<RestoreReport> {
  if (config.databaseUrl !== null) throw new MemoryError('UNSUPPORTED', POSTGRES_RESTORE_REFUSAL);
  const { restoreSqliteStore } = await import('../store/sqlite/sqlite-restore.js');
  return restoreSqliteStore({
    dbPath: config.databasePath,
    from: options.from,
    clock: options.clock,
  });
}
