/**
 * Runs one `mnemo` invocation and returns its exit code. This is the CLI's error boundary: every error
 * ends here, is shown once on stderr and mapped to an exit code; none is swallowed.
 *
 * Exit codes: 0 success; 1 a problem the user can fix (bad input, unknown id, usage error, busy or
 * unreadable store: the message says what to do); 2 an internal error (a bug: the stack is logged).
 */
import { inspect } from 'node:util';

import { CommanderError } from 'commander';

import type { App } from '../app/open-app.js';
import { isMemoryError } from '../core/errors.js';
import type { Logger } from '../log/log.js';
import type { CliContext } from './cli-context.js';
import { type CliIo, processIo } from './cli-io.js';
import { createProgram } from './create-program.js';

export const EXIT_OK = 0;
export const EXIT_USER_ERROR = 1;
export const EXIT_INTERNAL_ERROR = 2;

/** Parses `argv` (without `node` and the script), runs the command, closes what it opened. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const opened: App[] = [];
  let verbose = false;
  let command = '(none)';
  const ctx: CliContext = {
    io,
    get verbose() {
      return verbose;
    },
    async openApp(options = {}) {
      const { openApp } = await import('../app/open-app.js');
      // A scratch home (demo, doctor's round trip) is a throwaway local store: it must never reach the
      // team database that MNEMO_DATABASE_URL names.
      const env =
        options.home === undefined ? io.env : { ...io.env, MNEMO_DATABASE_URL: undefined };
      const app = await openApp({ env, overrides: options, stderr: io.stderr, verbose });
      opened.push(app);
      return app;
    },
  };
  const program = createProgram(
    async (parsed, run) => {
      verbose = program.opts<{ verbose?: boolean }>().verbose === true;
      command = parsed.name;
      await run(ctx);
    },
    { writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) },
  );

  let code = EXIT_OK;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    code = await reportError(error, { io, verbose, command, log: opened[0]?.log });
  }
  for (const app of opened.splice(0)) {
    try {
      await app.close();
    } catch (error) {
      code = Math.max(code, await reportError(error, { io, verbose, command, log: app.log }));
    }
  }
  return code;
}

interface ReportContext {
  io: CliIo;
  verbose: boolean;
  command: string;
  log: Logger | undefined;
}

/** Shows `error` on stderr, logs it and returns the exit code. */
export async function reportError(error: unknown, ctx: ReportContext): Promise<number> {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help/version text, exit code 0).
    return error.exitCode === 0 ? EXIT_OK : EXIT_USER_ERROR;
  }
  if (isMemoryError(error)) {
    ctx.log?.warn('command failed', { command: ctx.command, code: error.code, msg: error.message });
    ctx.io.stderr.write(`mnemo: ${error.message}\n`);
    if (ctx.verbose) ctx.io.stderr.write(`${describeStack(error)}\n`);
    return EXIT_USER_ERROR;
  }
  const log = ctx.log ?? (await fallbackLogger(ctx.io));
  log?.error('internal error', { command: ctx.command, stack: describeStack(error) });
  const message = error instanceof Error ? error.message : String(error);
  ctx.io.stderr.write(
    `mnemo: internal error in \`${ctx.command}\`: ${message}\n` +
      'This is a bug in mnemo. Run again with --verbose for the stack, and report it with that output.\n',
  );
  if (ctx.verbose) ctx.io.stderr.write(`${describeStack(error)}\n`);
  return EXIT_INTERNAL_ERROR;
}

function describeStack(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? current.message) : inspect(current));
    current = current instanceof Error ? current.cause : undefined;
    if (current !== undefined) parts.push('Caused by:');
  }
  return parts.join('\n');
}

/** A file logger for errors raised before any app was opened; undefined when even config fails. */
async function fallbackLogger(io: CliIo): Promise<Logger | undefined> {
  try {
    const [{ loadConfig }, { createLogger }, { systemClock }] = await Promise.all([
      import('../config/config.js'),
      import('../log/log.js'),
      import('../app/open-app.js'),
    ]);
    const config = loadConfig({ env: io.env });
    return createLogger({ file: config.logFile, level: config.logLevel, clock: systemClock });
  } catch {
    // The error being reported is what matters; a broken config is reported by the next command.
    return undefined;
  }
}
