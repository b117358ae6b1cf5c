import { homedir } from 'node:os';

import type { App } from '../../app/open-app.js';
import type { Config } from '../../config/config.js';
import { MemoryError } from '../../core/errors.js';
import { CLIENT_NAMES } from '../../core/install/clients.js';
import { checkBackups } from '../../doctor/check-backups.js';
import { checkClients, findClientInstalls } from '../../doctor/check-clients.js';
import { checkEngine } from '../../doctor/check-engine.js';
import { checkEmbedder, checkNode, checkRoundTrip, checkStore } from '../../doctor/check-parts.js';
import { checkHooks, checkMcp } from '../../doctor/check-registration.js';
import { checkSessionStart } from '../../doctor/check-session-start.js';
import { checkCaptureRate, checkDiskUse } from '../../doctor/check-usage.js';
import { checkVectors } from '../../doctor/check-vectors.js';
import { type CheckResult, type DoctorCheck, fail, runChecks } from '../../doctor/doctor-check.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface DoctorCliOptions {
  json?: boolean;
  /** Also open every backup and run the integrity check (audit chain included) on it. */
  verify?: boolean;
}

function line(result: CheckResult): string {
  const head = `${result.ok ? 'ok  ' : 'FAIL'}  ${result.name.padEnd(14)} ${result.detail}\n`;
  return result.fix === undefined ? head : `${head}      ${''.padEnd(14)} fix: ${result.fix}\n`;
}

/**
 * `mnemo doctor [--json] [--verify]`: checks every part a working install needs and says how to fix
 * each failure. Exit 0 only when every check passes. Reads the user's store and settings; writes only to
 * a scratch store that it deletes. A store that does not open (damaged, too new) is itself the finding:
 * the doctor still reports the backups `mnemo restore` can bring back, and skips the checks that need it.
 */
export async function doctor(ctx: CliContext, options: DoctorCliOptions): Promise<void> {
  const { loadConfig } = await import('../../config/config.js');
  const config = loadConfig({ env: ctx.io.env });
  let app: App | undefined;
  let openError: unknown;
  try {
    app = await ctx.openApp();
  } catch (error) {
    if (!(error instanceof MemoryError)) throw error;
    openError = error;
  }
  const backups: DoctorCheck = {
    name: 'backups',
    run: () => checkBackups(config, new Date(), options.verify === true),
  };
  const checks =
    app === undefined ? unopenedChecks(config, openError, backups) : appChecks(ctx, app, backups);
  const streaming = options.json !== true;
  const results = await runChecks(checks, (result) => {
    if (streaming) ctx.io.stdout.write(line(result));
  });
  const failed = results.filter((result) => !result.ok);
  if (!streaming) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ ok: failed.length === 0, checks: results }, null, 2)}\n`,
    );
  }
  if (failed.length > 0) {
    throw new MemoryError(
      'CHECK_FAILED',
      `${failed.length} of ${results.length} checks failed: ${failed.map((r) => r.name).join(', ')}. Each FAIL line says how to fix it.`,
    );
  }
}

function appChecks(ctx: CliContext, app: App, backups: DoctorCheck): DoctorCheck[] {
  const where = { env: ctx.io.env, userHome: homedir(), cwd: ctx.io.cwd };
  // Read once: the Claude Code checks need to know whether mnemo is installed elsewhere instead.
  let clients: ReturnType<typeof findClientInstalls> | undefined;
  const clientFindings = () =>
    (clients ??= findClientInstalls({ ...where, mnemoHome: app.config.home }));
  const others = () => [...new Set(clientFindings().map((f) => CLIENT_NAMES[f.client]))];
  return [
    { name: 'node', run: () => Promise.resolve(checkNode(process.version)) },
    { name: 'store', run: () => checkStore(app) },
    backups,
    { name: 'hooks', run: () => Promise.resolve(checkHooks(where, others())) },
    { name: 'mcp', run: () => Promise.resolve(checkMcp(where, others())) },
    { name: 'clients', run: () => Promise.resolve(checkClients(clientFindings())) },
    { name: 'engine', run: () => checkEngine(app) },
    { name: 'embedder', run: () => checkEmbedder(app) },
    { name: 'vectors', run: () => checkVectors(app) },
    { name: 'round trip', run: () => checkRoundTrip((home) => ctx.openApp({ home })) },
    { name: 'capture (24h)', run: () => checkCaptureRate(app) },
    { name: 'session start', run: () => checkSessionStart(app, ctx.io.cwd) },
    { name: 'disk', run: () => Promise.resolve(checkDiskUse(app)) },
  ];
}

/** The store did not open: that is the store check's finding; the backups say what can come back. */
function unopenedChecks(config: Config, error: unknown, backups: DoctorCheck): DoctorCheck[] {
  const message = error instanceof Error ? error.message : String(error);
  const fix =
    config.databaseUrl === null
      ? 'Stop Claude Code sessions and the engine (`mnemo serve --stop`), then run `mnemo restore`: it ' +
        'keeps the damaged file aside and restores the newest backup that passes its check.'
      : 'Check the server and MNEMO_DATABASE_URL; restore with the server’s own tools if its data is damaged.';
  return [
    { name: 'node', run: () => Promise.resolve(checkNode(process.version)) },
    { name: 'store', run: () => Promise.resolve(fail(`the store does not open: ${message}`, fix)) },
    backups,
  ];
}
