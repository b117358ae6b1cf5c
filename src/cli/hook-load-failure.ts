/**
 * Logs a hook bundle that exists but fails to load (a broken or partial install), so the fault is in
 * the log even when the unbundled entry the executable falls back to then runs fine.
 */
import { join } from 'node:path';

import { resolveMnemoHome } from '../config/home.js';
import { createLogger } from '../log/log.js';

const FALLBACK = 'hook bundle failed to load; running the unbundled entry';

/** Writes one error line for `name` to the default log of `env`'s home. Never throws. */
export function logHookLoadFailure(
  env: NodeJS.ProcessEnv,
  name: string,
  error: unknown,
  message = FALLBACK,
): void {
  try {
    const file = join(resolveMnemoHome(env), 'logs', 'mnemo.log');
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    createLogger({ file, level: 'info', clock: { now: () => new Date() } }).error(message, {
      hook: name.slice(0, 64),
      error: stack.slice(0, 2000),
    });
  } catch {
    // Not even the log is writable: the CLI path reports what it can.
  }
}
