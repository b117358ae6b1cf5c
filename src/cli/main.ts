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

const argv = process.argv.slice(2);
const code = await runCli(argv);
// Hooks fail open: Claude Code treats a non-zero exit as an error notice (and 2 as blocking), and a memory
// engine must never disturb the session. The boundary above has already written the fault to stderr and
// the log; only the exit status is forced here.
process.exitCode = argv.find((arg) => !arg.startsWith('-')) === 'hook' ? 0 : code;
