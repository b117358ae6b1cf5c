import { homedir } from 'node:os';

import { loadConfig } from '../../config/config.js';
import type { ClientId } from '../../core/install/clients.js';
import { renderReport } from '../../install/install-report.js';
import type { InstallScope } from '../../install/install-targets.js';
import { type InstallOptions, runInstall } from '../../install/run-install.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

/** Options shared by `mnemo install` and `mnemo uninstall`. */
export interface InstallCliOptions {
  client?: ClientId;
  scope?: InstallScope;
  dryRun?: boolean;
}

/**
 * `mnemo install [--client <id>] [--scope user|project] [--dry-run] [--command <cmd>]`: registers the
 * hooks and the MCP server with Claude Code (or the client named), printing a diff of every file it
 * changes and (re)writing the launcher they run. Opens no store.
 */
export async function install(
  ctx: CliContext,
  options: InstallCliOptions & { command?: string },
): Promise<void> {
  const report = runInstall({
    ...installOptions(ctx, options),
    argv1: process.argv[1],
    execPath: process.execPath,
    command: options.command,
  });
  await writeOut(ctx.io.stdout, renderReport(report));
}

/** The process-facing inputs of an install or uninstall run. */
export function installOptions(ctx: CliContext, options: InstallCliOptions): InstallOptions {
  return {
    client: options.client ?? 'claude-code',
    scope: options.scope ?? 'user',
    dryRun: options.dryRun === true,
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    userHome: homedir(),
    mnemoHome: loadConfig({ env: ctx.io.env }).home,
    now: () => new Date(),
  };
}
