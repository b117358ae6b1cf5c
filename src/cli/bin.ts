#!/usr/bin/env node
/**
 * The `mnemo` executable: package.json's `bin` and the command `mnemo install` registers, bundled into
 * the CommonJS file dist/cli/mnemo.cjs by scripts/bundle-hooks.mjs (tsc does not build it). CommonJS so
 * that a hook process never starts Node's ES-module loader.
 *
 * `mnemo hook <event>`: with the engine up, a hook the engine answers whole is forwarded to it and this
 * process loads nothing else (hooks/forward-hook.ts). Otherwise, or when the forward fails, the hook's
 * bundle runs through V8's code cache (hook-bundle-loader.ts, a CommonJS file of its own that a
 * forwarded hook never loads) with the stdin already read. `mnemo hook --client <id> <event>` takes
 * the same two paths once the client's payload is mapped onto mnemo's hook of the same meaning
 * (hooks/clients/plan-client-hook.ts, also a file of its own). Every other command, and a hook without
 * a usable bundle, goes to the CLI (main.js), an ES module loaded on demand.
 */
import { fileURLToPath } from 'node:url';

import { forwardHook, isForwardedHook, readHookStdin } from '../hooks/forward-hook.js';
import { handOverHook, type HookHandover, takeHookHandover } from '../hooks/hook-handover.js';
import { HOOK_DEADLINE_MS, hookDeadlineFromEnv } from '../hooks/hook-limits.js';
import type { CappedBytes } from '../hooks/read-capped.js';

type Writer = { write(text: string): unknown };

interface HookRun {
  event: string;
  env: NodeJS.ProcessEnv;
  deadlineAt: number;
  /** The payload when this process read it already (a client hook's, mapped). */
  input?: Promise<CappedBytes>;
  /** Where the output goes; default stdout. */
  stdout?: Writer;
}

/**
 * Forwards the hook to the engine; true when it answered and its output is printed. Otherwise leaves
 * the hook's full path the handover: the stdin as read, what was learnt of the engine, the deadline.
 */
async function forwarded(run: HookRun): Promise<boolean> {
  const handover: HookHandover = {
    ...(run.input === undefined ? {} : { input: run.input }),
    ...(run.stdout === undefined ? {} : { stdout: run.stdout }),
    deadlineAt: run.deadlineAt,
  };
  if (!isForwardedHook(run.event) || run.env['MNEMO_HOOK_FORWARD'] === '0') {
    if (run.input !== undefined || run.stdout !== undefined) handOverHook(handover);
    return false;
  }
  const { input } = run;
  const outcome = await forwardHook(run.event, {
    env: run.env,
    remainingMs: run.deadlineAt - Date.now(),
    ...(input === undefined ? {} : { readInput: () => input }),
  });
  if (outcome.status === 'answered') {
    if (outcome.stdout.length > 0) (run.stdout ?? process.stdout).write(outcome.stdout);
    return true;
  }
  const engine =
    outcome.status === 'unanswered' ? 'unanswered' : outcome.engineUsable ? undefined : 'skip';
  handOverHook({
    ...handover,
    ...(outcome.input === undefined ? {} : { input: outcome.input }),
    ...(engine === undefined ? {} : { engine }),
  });
  return false;
}

/** Runs the hook from its bundle after `forwarded`; true when it ran. */
async function bundled(event: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  // Its own file (dist/cli/hook-bundle-loader.cjs): a hook the engine answered never compiles it.
  const { runHookBundle } = await import('./hook-bundle-loader.js');
  const bundleDir = fileURLToPath(new URL('../hook-bundles/', import.meta.url));
  return runHookBundle(event, { bundleDir, env });
}

function deadlineOf(env: NodeJS.ProcessEnv): number {
  return Date.now() + (hookDeadlineFromEnv(env) ?? HOOK_DEADLINE_MS);
}

/**
 * `hook --client <id> <event>`: true when it ran here. False leaves the CLI's client hook a handover
 * holding the client's own payload (and what was learnt of the engine), which it maps again.
 */
async function clientHook(client: string, event: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const deadlineAt = deadlineOf(env);
  const input = readHookStdin();
  const { planClientHook, clientStdout } = await import('../hooks/clients/plan-client-hook.js');
  let read: CappedBytes;
  try {
    read = await input;
  } catch {
    // The CLI's client hook meets the same failure and logs it.
    handOverHook({ input, deadlineAt });
    return false;
  }
  const plan = planClientHook(client, event, read, env);
  if (plan.kind === 'ignore') {
    // The CLI logs the event it does not answer.
    handOverHook({ input, deadlineAt });
    return false;
  }
  // Lazily: touching `process.stdout` sets up a stream even for a hook that prints nothing.
  const stdout = clientStdout(plan, event, { write: (text) => process.stdout.write(text) });
  const run = { event: plan.hook, env, deadlineAt, input: Promise.resolve(plan.input), stdout };
  if ((await forwarded(run)) || (await bundled(plan.hook, env))) return true;
  // No usable bundle: the handover `forwarded` left holds the mapped payload and this process's writer;
  // the CLI's client hook gets the client's payload back instead, with what was learnt of the engine.
  const { engine } = takeHookHandover() ?? {};
  handOverHook({ input, deadlineAt, ...(engine === undefined ? {} : { engine }) });
  return false;
}

async function run(argv: readonly string[]): Promise<void> {
  const [command, event] = argv;
  if (argv.length === 2 && command === 'hook' && event !== undefined) {
    const env = process.env;
    if (
      (await forwarded({ event, env, deadlineAt: deadlineOf(env) })) ||
      (await bundled(event, env))
    ) {
      process.exitCode = 0;
      return;
    }
  }
  const [, flag, client, clientEvent] = argv;
  const isClientHook = argv.length === 4 && command === 'hook' && flag === '--client';
  if (isClientHook && client !== undefined && clientEvent !== undefined) {
    if (await clientHook(client, clientEvent, process.env)) {
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
