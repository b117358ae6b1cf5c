import { MemoryError } from '../../core/errors.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface RestoreCliOptions {
  from?: string;
  json?: boolean;
}

/** How long `restore` waits for an engine to answer before taking it for stopped. */
const PING_MS = 1000;

/**
 * `mnemo restore [--from <file>] [--json]`: replaces the SQLite store with a backup that passes its own
 * integrity check, keeping the replaced file aside, then opens the result (migrating an older backup)
 * and checks it again. Refuses while an engine is running (it holds the file open), on PostgreSQL (the
 * server's tools restore it), and for a backup that fails its check; in each case nothing is changed.
 */
export async function restore(ctx: CliContext, options: RestoreCliOptions): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const { restoreStore } = await import('../../app/store-backups.js');
  const { systemClock } = await import('../../app/open-app.js');
  const config = loadConfig({ env: ctx.io.env });
  if (config.databaseUrl === null) {
    const { pingEngine } = await import('../../engine/engine-client.js');
    const engine = await pingEngine(config, PING_MS);
    if (engine !== undefined) {
      throw new MemoryError(
        'CONFLICT',
        `The mnemo engine (pid ${engine.pid}) has the store open. Stop it with \`mnemo serve --stop\`, ` +
          'then run `mnemo restore` again. Nothing was changed.',
      );
    }
  }
  const report = await restoreStore(config, { from: options.from, clock: systemClock });
  // The restored copy passed its check as a backup; opening it applies any newer migrations.
  const app = await ctx.openApp();
  const problems = await app.store.checkIntegrity();
  if (options.json === true) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ ...report, problems, schemaVersion: app.store.schemaVersion }, null, 2)}\n`,
    );
  } else {
    const { restored } = report;
    const lines = [
      `restored ${restored.path} → ${config.databasePath}`,
      `memories: ${restored.memories}; audit chain: ${restored.auditEntries} entries verified; schema v${restored.schemaVersion} → v${app.store.schemaVersion}`,
      ...report.keptAside.map((path) => `kept aside: ${path}`),
      ...report.skipped.map((s) => `skipped (fails its check): ${s.path}: ${s.problems[0] ?? ''}`),
      'Run `mnemo doctor --verify` to check the whole install.',
    ];
    await writeOut(ctx.io.stdout, `${lines.join('\n')}\n`);
  }
  if (problems.length > 0) {
    throw new MemoryError(
      'CHECK_FAILED',
      `The restored store reports ${problems.length} problem(s) after opening: ${problems.slice(0, 3).join('; ')}. ` +
        `The replaced file is still at ${report.keptAside[0] ?? '(none)'}.`,
    );
  }
}
