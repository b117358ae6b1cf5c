#!/usr/bin/env node
/**
 * The `mnemo` executable. Wiring only: every command is parsed in create-program.ts and loaded lazily,
 * so `--help` starts without the store driver. `mnemo hook <event>`, which Claude Code runs on every tool
 * call and prompt, takes a fast path past the CLI: it loads the hook's own bundle (dist/hook-bundles/,
 * built by scripts/bundle-hooks.mjs) and nothing else, so this file imports as little as it can.
 */
import nodeModule from 'node:module';

import { isHookName } from '../hooks/hook-names.js';
import type { HookEntry } from '../hooks/hook-specs.js';

/** Loads a hook's bundle, or tsc's unbundled entry when the bundles were not built. */
async function loadHookEntry(name: string): Promise<HookEntry | undefined> {
  // The V8 compile cache (Node 22.1+) must be on before the bundle is compiled; Node 20 has none.
  if ('enableCompileCache' in nodeModule) {
    const { enableCompileCache } = await import('./compile-cache.js');
    enableCompileCache(process.env);
  }
  try {
    return (await import(`../hook-bundles/${name}.js`)) as HookEntry;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') {
      const { logHookLoadFailure } = await import('./hook-load-failure.js');
      logHookLoadFailure(name, error);
    }
    // The CLI's `hook` command below loads the unbundled entry and logs whatever fails there.
    return undefined;
  }
}

const argv = process.argv.slice(2);
const [command, event] = argv;
const entry =
  argv.length === 2 && command === 'hook' && event !== undefined && isHookName(event)
    ? await loadHookEntry(event)
    : undefined;
if (entry !== undefined) {
  await entry.main();
  process.exitCode = 0;
} else {
  // `mnemo export | head` closes the pipe early; that is the reader's choice, not an error. (Not on the
  // hook path: touching `process.stdout` there would set up a stream for a hook that prints nothing.)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { runCli } = await import('./run-cli.js');
  const code = await runCli(argv);
  // Hooks fail open: Claude Code treats a non-zero exit as an error notice (and 2 as blocking), and a
  // memory engine must never disturb the session. The boundary above has already written the fault to
  // stderr and the log; only the exit status is forced here.
  process.exitCode = argv.find((arg) => !arg.startsWith('-')) === 'hook' ? 0 : code;
}
