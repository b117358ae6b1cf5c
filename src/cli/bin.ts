#!/usr/bin/env node
/**
 * The `mnemo` executable: package.json's `bin` and the command `mnemo install` registers, bundled into
 * the CommonJS file dist/cli/mnemo.cjs by scripts/bundle-hooks.mjs (tsc does not build it). CommonJS so
 * that a hook process never starts Node's ES-module loader.
 *
 * `mnemo hook <event>`: with the engine up, a hook the engine answers whole is forwarded to it and this
 * process loads nothing else (hooks/forward-hook.ts). Otherwise, or when the forward fails, the hook's
 * bundle runs through V8's code cache (hook-bundle-loader.ts, a CommonJS file of its own that a forwarded
 * hook never loads) with the stdin already read. Every other
 * command, and a hook without a usable bundle, goes to the CLI (main.js), an ES module loaded on demand.
 */
import { fileURLToPath } from 'node:url';

import { forwardHook, isForwardedHook } from '../hooks/forward-hook.js';
import { handOverHook } from '../hooks/hook-handover.js';
import { HOOK_DEADLINE_MS, hookDeadlineFromEnv } from '../hooks/hook-limits.js';

/** Forwards the hook to the engine; true when it answered and its output is printed. */
async function forwarded(event: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!isForwardedHook(event) || env['MNEMO_HOOK_FORWARD'] === '0') return false;
  const deadlineAt = Date.now() + (hookDeadlineFromEnv(env) ?? HOOK_DEADLINE_MS);
  const outcome = await forwardHook(event, { env, remainingMs: deadlineAt - Date.now() });
  if (outcome.status === 'answered') {
    if (outcome.stdout.length > 0) process.stdout.write(outcome.stdout);
    return true;
  }
  const engine =
    outcome.status === 'unanswered' ? 'unanswered' : outcome.engineUsable ? undefined : 'skip';
  handOverHook({
    ...(outcome.input === undefined ? {} : { input: outcome.input }),
    ...(engine === undefined ? {} : { engine }),
    deadlineAt,
  });
  return false;
}

async function run(argv: readonly string[]): Promise<void> {
  const [command, event] = argv;
  if (argv.length === 2 && command === 'hook' && event !== undefined) {
    if (await forwarded(event, process.env)) {
      process.exitCode = 0;
      return;
    }
    // Its own file (dist/cli/hook-bundle-loader.cjs): a hook the engine answered never compiles it.
    const { runHookBundle } = await import('./hook-bundle-loader.js');
    const bundleDir = fileURLToPath(new URL('../hook-bundles/', import.meta.url));
    if (await runHookBundle(event, { bundleDir, env: process.env })) {
      process.exitCode = 0;
      return;
    }
  }
  await import('./main.js');
}

const argv = process.argv.slice(2);
run(argv).catch(async (error: unknown) => {
  if (argv[0] === 'hook') {
    // Hooks fail open: nothing on stdout or stderr, exit 0, the fault in the log.
    process.exitCode = 0;
    const { logHookLoadFailure } = await import('./hook-load-failure.js');
    logHookLoadFailure(
      process.env,
      argv[1] ?? '',
      error,
      'mnemo could not load its CLI; the hook did nothing',
    );
    return;
  }
  process.exitCode = 1;
  process.stderr.write(
    `mnemo: cannot load the CLI (${String(error)}). Reinstall mnemo, or run \`npm run build\` in a checkout.\n`,
  );
});
