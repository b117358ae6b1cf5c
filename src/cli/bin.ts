#!/usr/bin/env node
/**
 * The `mnemo` executable: package.json's `bin` and the command `mnemo install` registers, bundled into
 * the CommonJS file dist/cli/mnemo.cjs by scripts/bundle-hooks.mjs (tsc does not build it). CommonJS so
 * that a hook process never starts Node's ES-module loader: `mnemo hook <event>` runs the hook's bundle
 * through V8's code cache (hook-bundle-loader.ts) and loads nothing else. Every other command, and a
 * hook without a usable bundle, goes to the CLI (main.js), an ES module loaded on demand.
 */
import { fileURLToPath } from 'node:url';

import { runHookBundle } from './hook-bundle-loader.js';

async function run(argv: readonly string[]): Promise<void> {
  const [command, event] = argv;
  if (argv.length === 2 && command === 'hook' && event !== undefined) {
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
