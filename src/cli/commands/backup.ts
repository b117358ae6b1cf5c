import { MemoryError } from '../../core/errors.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface BackupCliOptions {
  ifDue?: boolean;
  json?: boolean;
}

/**
 * `mnemo backup [--if-due] [--json]`: a checked copy of the SQLite store beside it (`VACUUM INTO` over a
 * read transaction, so hooks and the engine keep writing), kept only when it passes the integrity check,
 * then rotation of the daily copies. `--if-due` takes one only when the newest daily copy is a day old:
 * the resident engine runs exactly this in a process of its own once a day. Never opens the store for
 * writing and never migrates it. Refused on PostgreSQL, which the server's tools back up.
 */
export async function backup(ctx: CliContext, options: BackupCliOptions): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { POSTGRES_BACKUP_REFUSAL, storeBackups } = await import('../../app/store-backups.js');
  const { systemClock } = await import('../../app/open-app.js');
  const config = loadConfig({ env: ctx.io.env });
  const backups = await storeBackups(config);
  if (backups === null) throw new MemoryError('UNSUPPORTED', POSTGRES_BACKUP_REFUSAL);
  const report = backups.takeDailyIfDue(systemClock, { force: options.ifDue !== true });
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines =
    report.taken === null
      ? [
          `no backup due: the newest daily copy (${report.previous?.path ?? 'none'}) was taken at ` +
            `${report.previous?.takenAt ?? '?'}, less than a day ago. Run \`mnemo backup\` to take one now.`,
        ]
      : [
          `backup: ${report.taken}`,
          `checked: ${report.check?.memories ?? 0} memories; audit chain: ${report.check?.auditEntries ?? 0} entries verified; schema v${report.check?.schemaVersion ?? 0}`,
          ...report.removed.map((path) => `rotated away: ${path}`),
        ];
  await writeOut(ctx.io.stdout, `${lines.join('\n')}\n`);
}
