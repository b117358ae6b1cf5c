/**
 * The names, listing and rotation of the SQLite store's backups (no driver: the migration step and the
 * store's opener use these too). Backups sit beside the database: `<db>.bak-v<from>-<stamp>` taken
 * before a migration (sqlite-migrate.ts), `<db>.bak-daily-<stamp>` taken by the engine
 * (sqlite-backup.ts). The stamp is the UTC time, so names sort by age.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type BackupKind = 'daily' | 'pre-migration';

export interface BackupFile {
  readonly path: string;
  readonly kind: BackupKind;
  /** When it was taken (from its name). */
  readonly takenAt: Date;
  readonly bytes: number;
}

/** How old the newest daily copy must be before another is due. */
export const DAILY_BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Whether another daily copy is due at `now`, `newest` being the newest daily one (if any). */
export function isDailyBackupDue(newest: BackupFile | undefined, now: Date): boolean {
  return (
    newest === undefined || now.getTime() - newest.takenAt.getTime() >= DAILY_BACKUP_INTERVAL_MS
  );
}

/** How many of each kind are kept; the oldest beyond this are deleted after a good new copy. */
export const KEEP_BACKUPS: Readonly<Record<BackupKind, number>> = { daily: 7, 'pre-migration': 3 };

const NAME = /\.bak-(?:v\d+|daily)-(\d{8}T\d{9}Z)(?:-\d+)?$/;

/** `2026-12-03T10:50:00.000Z` → `20261203T105000000Z`: sortable, and safe on every filesystem. */
export function backupStamp(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '');
}

function parseStamp(stamp: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(stamp);
  if (m === null) return new Date(Number.NaN);
  return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
}

/** The backups of the store at `dbPath`, newest first. */
export function listBackups(dbPath: string): BackupFile[] {
  const dir = dirname(dbPath);
  const prefix = `${basename(dbPath)}.bak-`;
  if (!existsSync(dir)) return [];
  const found: BackupFile[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const match = NAME.exec(name);
    if (match === null) continue;
    const path = join(dir, name);
    const takenAt = parseStamp(match[1] ?? '');
    if (Number.isNaN(takenAt.getTime())) continue;
    const kind: BackupKind = name.startsWith(`${prefix}daily-`) ? 'daily' : 'pre-migration';
    found.push({ path, kind, takenAt, bytes: statSync(path).size });
  }
  return found.sort(
    (a, b) => b.takenAt.getTime() - a.takenAt.getTime() || (a.path < b.path ? 1 : -1),
  );
}

/** A free name for a backup of `kind` taken at `at`. */
export function backupTarget(dbPath: string, label: string, at: Date): string {
  const base = `${dbPath}.bak-${label}-${backupStamp(at)}`;
  let target = base;
  for (let n = 2; existsSync(target); n += 1) target = `${base}-${n}`;
  return target;
}

/** Deletes the oldest backups beyond KEEP_BACKUPS of each kind; returns what it deleted. */
export function rotateBackups(dbPath: string): string[] {
  const removed: string[] = [];
  const seen: Record<BackupKind, number> = { daily: 0, 'pre-migration': 0 };
  for (const backup of listBackups(dbPath)) {
    seen[backup.kind] += 1;
    if (seen[backup.kind] > KEEP_BACKUPS[backup.kind]) {
      rmSync(backup.path, { force: true });
      removed.push(backup.path);
    }
  }
  return removed;
}
