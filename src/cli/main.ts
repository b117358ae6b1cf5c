#!/usr/bin/env node
/**
 * The CLI's entry module. Wiring only: every command is parsed in create-program.ts and loaded lazily,
 * so `--help` starts without the store driver. The executable is cli/bin.ts (dist/cli/mnemo.cjs), which
 * imports this module for everything but a bundled hook. Installs made before it registered
 * `node …/dist/cli/main.js hook <event>`, so `hook <event>` still takes the same fast path here: the
 * hook's bundle through the code cache (hook-bundle-loader.ts), past the CLI.
 */
import { fileURLToPath } from 'node:url';

import { runHookBundle } from './hook-bundle-loader.js';

const argv = process.argv.slice(2);
const [command, event] = argv;
const bundled =
  argv.length === 2 &&
  command === 'hook' &&
  event !== undefined &&
  (await runHookBundle(event, {
    bundleDir: fileURLToPath(new URL('../hook-bundles/', import.meta.url)),
    env: process.env,
  }));
if (bundled) {
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
