#!/usr/bin/env node
/**
 * The `mnemo` executable. Wiring only: every command is parsed in create-program.ts and loaded lazily,
 * so a hook or `--help` starts without the store driver.
 */
import { runCli } from './run-cli.js';

// `mnemo export | head` closes the pipe early; that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2));
