import { homedir } from 'node:os';

import { MemoryError } from '../../core/errors.js';
import { checkEngine } from '../../doctor/check-engine.js';
import { checkEmbedder, checkNode, checkRoundTrip, checkStore } from '../../doctor/check-parts.js';
import { checkHooks, checkMcp } from '../../doctor/check-registration.js';
import { checkSessionStart } from '../../doctor/check-session-start.js';
import { checkCaptureRate, checkDiskUse } from '../../doctor/check-usage.js';
import { type CheckResult, type DoctorCheck, runChecks } from '../../doctor/doctor-check.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface DoctorCliOptions {
  json?: boolean;
}

function line(result: CheckResult): string {
  const head = `${result.ok ? 'ok  ' : 'FAIL'}  ${result.name.padEnd(14)} ${result.detail}\n`;
  return result.fix === undefined ? head : `${head}      ${''.padEnd(14)} fix: ${result.fix}\n`;
}

/**
 * `mnemo doctor [--json]`: checks every part a working install needs and says how to fix each failure.
 * Exit 0 only when every check passes. Reads the user's store and settings; writes only to a scratch
 * store that it deletes.
 */
export async function doctor(ctx: CliContext, options: DoctorCliOptions): Promise<void> {
  const where = { env: ctx.io.env, userHome: homedir(), cwd: ctx.io.cwd };
  const app = await ctx.openApp();
  const checks: DoctorCheck[] = [
    { name: 'node', run: () => Promise.resolve(checkNode(process.version)) },
    { name: 'store', run: () => checkStore(app) },
    { name: 'hooks', run: () => Promise.resolve(checkHooks(where)) },
    { name: 'mcp', run: () => Promise.resolve(checkMcp(where)) },
    { name: 'engine', run: () => checkEngine(app) },
    { name: 'embedder', run: () => checkEmbedder(app) },
    { name: 'round trip', run: () => checkRoundTrip((home) => ctx.openApp({ home })) },
    { name: 'capture (24h)', run: () => checkCaptureRate(app) },
    { name: 'session start', run: () => checkSessionStart(app, ctx.io.cwd) },
    { name: 'disk', run: () => Promise.resolve(checkDiskUse(app)) },
  ];
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
