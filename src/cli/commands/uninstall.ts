import { renderReport } from '../../install/install-report.js';
import { runUninstall } from '../../install/run-uninstall.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { type InstallCliOptions, installOptions } from './install.js';

/**
 * `mnemo uninstall [--scope user|project] [--dry-run]`: removes what `mnemo install` registered. A file
 * untouched since install gets its original bytes back; a changed one loses only mnemo's entries.
 */
export async function uninstall(ctx: CliContext, options: InstallCliOptions): Promise<void> {
  const report = runUninstall({
    ...installOptions(ctx, options),
    argv1: process.argv[1],
    execPath: process.execPath,
  });
  await writeOut(ctx.io.stdout, renderReport(report));
}
