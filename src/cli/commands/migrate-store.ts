import { hostname } from 'node:os';

import { MemoryError } from '../../core/errors.js';
import type { CopyProgress, CopyReport } from '../../store/copy-store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface MigrateStoreOptions {
  to: string;
  json?: boolean;
}

const BAR = 30;

function bar(progress: CopyProgress): string {
  const share = progress.total === 0 ? 1 : Math.min(1, progress.done / progress.total);
  const filled = Math.round(share * BAR);
  return `${progress.phase.padEnd(8)} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${progress.done}/${progress.total}`;
}

/**
 * `mnemo migrate-store --to <postgres-url>`: copies the local SQLite store (memories with vectors and
 * model ids, origins, audit log, injection ledger) into PostgreSQL, with a progress bar on stderr.
 * Running it again finishes an interrupted copy and changes nothing once complete. Exits 1 unless the
 * final check finds every source record in the target.
 */
export async function migrateStore(ctx: CliContext, options: MigrateStoreOptions): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { openTargetStore } = await import('../../app/open-app.js');
  const { copyStore } = await import('../../store/copy-store.js');
  const config = loadConfig({ env: ctx.io.env });
  // The source is always this home's SQLite file, whatever MNEMO_DATABASE_URL says.
  const app = await ctx.openApp({ home: config.home });
  const target = await openTargetStore(options.to, app);
  // A terminal gets one bar redrawn in place; a log gets one line per finished phase.
  const interactive = (ctx.io.stderr as { isTTY?: boolean }).isTTY === true;
  let report: CopyReport;
  try {
    report = await copyStore(app.store, target, {
      sourceName: `${hostname()}:${app.config.databasePath}`,
      onProgress: (progress) => {
        const finished = progress.done === progress.total;
        if (interactive) ctx.io.stderr.write(`\r${bar(progress)}${finished ? '\n' : ''}`);
        else if (finished) ctx.io.stderr.write(`${bar(progress)}\n`);
      },
    });
  } finally {
    await target.close();
  }
  const summary =
    `copied ${app.config.databasePath} → ${target.description.location}\n` +
    `memories: ${report.memories.source} (${report.memories.imported} imported, ${report.memories.skipped} already there)\n` +
    `audit:    ${report.audit.source} entries (${report.audit.appended} appended)\n` +
    `ledger:   ${report.ledger.source} injections (${report.ledger.appended} appended)\n`;
  if (options.json === true) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ target: target.description.location, ...report }, null, 2)}\n`,
    );
  } else {
    await writeOut(
      ctx.io.stdout,
      summary + (report.problems.length === 0 ? 'verified: the target holds every record\n' : ''),
    );
  }
  if (report.problems.length > 0) {
    throw new MemoryError(
      'CHECK_FAILED',
      `The copy is incomplete: ${report.problems.join('; ')}. Run the same command again to resume; memories the target already holds under another id stay where they are.`,
    );
  }
}
