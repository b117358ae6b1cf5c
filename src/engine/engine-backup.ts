/**
 * The engine's daily backup of a SQLite store, taken in a process of its own: `mnemo backup --if-due
 * --json` from this package's executable. The copy (`VACUUM INTO`) and its integrity check are
 * synchronous SQLite calls that take seconds on a large store; on the engine's thread they would hold up
 * every hook request meanwhile (the hooks would fall back to the spool and injections would be
 * skipped). The child shares only the store file with the engine: it copies over a read transaction of
 * its own, so writers carry on in WAL mode. Without a built executable (running from the sources) the
 * engine takes the copy on its own thread, and says so in its log.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

import type { App } from '../app/open-app.js';
import type { DailyBackupReport, StoreBackups } from '../app/store-backups.js';
import { mnemoMainPath } from './engine-client.js';

/** Longest a backup process may run before it is stopped (and the failure logged). */
export const BACKUP_PROCESS_TIMEOUT_MS = 30 * 60 * 1000;

/** How to start this package's executable, or why it cannot be. */
export type BackupLauncher = { execPath: string; main: string } | { unavailable: string };

/**
 * The launcher of the built `mnemo` beside this module, the one `startEngineDetached` starts the engine
 * with; unavailable when running from the sources.
 */
export function packageLauncher(): BackupLauncher {
  const main = mnemoMainPath();
  if (!existsSync(main)) return { unavailable: `no built mnemo at ${main} (\`npm run build\`)` };
  return { execPath: process.execPath, main };
}

/** Runs `mnemo backup --if-due --json` for `app`'s home; rejects with the child's own message. */
export function backupInProcessOfItsOwn(
  app: App,
  launcher: { execPath: string; main: string },
): Promise<DailyBackupReport> {
  return new Promise((resolve, reject) => {
    execFile(
      launcher.execPath,
      [launcher.main, 'backup', '--if-due', '--json'],
      {
        env: { ...process.env, MNEMO_HOME: app.config.home },
        timeout: BACKUP_PROCESS_TIMEOUT_MS,
        maxBuffer: 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error !== null) {
          // mnemo's own refusals are one line; a crash's message sits under node's location line.
          const lines = stderr.split('\n').map((line) => line.trim());
          const why =
            lines.find((line) => /^(mnemo\b|\w*Error\b)/u.test(line)) ??
            lines.find((line) => line !== '') ??
            '';
          reject(new Error(`mnemo backup failed (${String(error.code ?? error.signal)}): ${why}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout) as DailyBackupReport);
        } catch {
          reject(new Error(`mnemo backup printed no report: ${stdout.slice(0, 200)}`));
        }
      },
    );
  });
}

/**
 * Takes the daily backup when due: in a child process when the executable is there, else on this
 * thread (logged). Null when none was due or the store is PostgreSQL (the server's to back up).
 */
export async function takeDailyBackup(
  app: App,
  backups: StoreBackups,
  launcher: BackupLauncher,
): Promise<DailyBackupReport | null> {
  const newest = backups.list().find((b) => b.kind === 'daily');
  if (!backups.isDue(newest, app.clock)) return null;
  if ('unavailable' in launcher) {
    app.log.warn('engine: daily backup on the engine thread', { why: launcher.unavailable });
    return backups.takeDailyIfDue(app.clock);
  }
  return backupInProcessOfItsOwn(app, launcher);
}
