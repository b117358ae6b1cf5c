import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';

import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { MemoryError } from '../core/errors.js';
import { createLogger } from '../log/log.js';
import type { CliIo } from './cli-io.js';
import { EXIT_INTERNAL_ERROR, EXIT_OK, EXIT_USER_ERROR, reportError, runCli } from './run-cli.js';

const tempDir = useTempDirs();

function streams(stdin = ''): { io: CliIo; stdout: () => string; stderr: () => string } {
  const out = new PassThrough({ encoding: 'utf8' });
  const err = new PassThrough({ encoding: 'utf8' });
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk: string) => (stdout += chunk));
  err.on('data', (chunk: string) => (stderr += chunk));
  const dir = tempDir();
  return {
    io: {
      stdin: Readable.from([Buffer.from(stdin)]),
      stdout: out,
      stderr: err,
      env: { MNEMO_HOME: join(dir, 'home'), HOME: dir },
      cwd: dir,
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

describe('runCli', () => {
  it('runs a command in-process and returns 0', async () => {
    const s = streams('from stdin');
    expect(await runCli(['remember', '-'], s.io)).toBe(EXIT_OK);
    expect(s.stdout()).toMatch(/^Remembered [0-9A-Z]{26}\n$/);
    const list = streams();
    list.io.env = s.io.env;
    list.io.cwd = s.io.cwd;
    expect(await runCli(['list'], list.io)).toBe(EXIT_OK);
    expect(list.stdout()).toContain('from stdin');
  });

  it('maps a MemoryError to exit 1 with the message alone on stderr', async () => {
    const s = streams();
    expect(await runCli(['get', '01ARZ3NDEKTSV4RRFFQ69G5FAV'], s.io)).toBe(EXIT_USER_ERROR);
    expect(s.stderr()).toBe(
      'mnemo: No memory with id 01ARZ3NDEKTSV4RRFFQ69G5FAV. Run `mnemo list` to see ids.\n',
    );
    expect(s.stdout()).toBe('');
  });

  it('adds the stack with --verbose', async () => {
    const s = streams();
    expect(await runCli(['--verbose', 'forget', 'nope'], s.io)).toBe(EXIT_USER_ERROR);
    expect(s.stderr()).toMatch(/^mnemo: "nope" is not a memory id[\s\S]*\n {4}at /);
  });

  it('returns 0 for --help and 1 for a usage error', async () => {
    const help = streams();
    expect(await runCli(['--help'], help.io)).toBe(EXIT_OK);
    expect(help.stdout()).toContain('Usage: mnemo');
    const usage = streams();
    expect(await runCli(['recall'], usage.io)).toBe(EXIT_USER_ERROR);
    expect(usage.stderr()).toMatch(/missing required argument 'query'/);
  });
});

describe('reportError', () => {
  const clock = { now: () => new Date('2024-05-01T00:00:00.000Z') };

  it.each([
    [
      'a MemoryError',
      new MemoryError('STORE_BUSY', 'Busy. Retry.'),
      EXIT_USER_ERROR,
      'mnemo: Busy. Retry.\n',
    ],
    ['a displayed help', new CommanderError(0, 'commander.helpDisplayed', '(help)'), EXIT_OK, ''],
    ['a usage error', new CommanderError(1, 'commander.unknownOption', 'x'), EXIT_USER_ERROR, ''],
  ])('maps %s to its exit code', async (_name, error, code, stderr) => {
    const s = streams();
    expect(
      await reportError(error, { io: s.io, verbose: false, command: 'x', log: undefined }),
    ).toBe(code);
    expect(s.stderr()).toBe(stderr);
  });

  it('reports an unknown error as internal, exit 2, with the stack in the log', async () => {
    const s = streams();
    const file = join(tempDir(), 'mnemo.log');
    const log = createLogger({ file, level: 'info', clock });
    const code = await reportError(new TypeError('undefined is not a function'), {
      io: s.io,
      verbose: false,
      command: 'recall',
      log,
    });
    expect(code).toBe(EXIT_INTERNAL_ERROR);
    expect(s.stderr()).toMatch(
      /^mnemo: internal error in `recall`: undefined is not a function\nThis is a bug in mnemo\./,
    );
    expect(readFileSync(file, 'utf8')).toMatch(
      /"msg":"internal error".*TypeError: undefined is not a function/,
    );
  });

  it('prints the cause chain with --verbose', async () => {
    const s = streams();
    const error = new MemoryError('STORE_CORRUPT', 'Damaged.', {
      cause: new Error('SQLITE_CORRUPT'),
    });
    await reportError(error, { io: s.io, verbose: true, command: 'list', log: undefined });
    expect(s.stderr()).toMatch(
      /^mnemo: Damaged\.\nMemoryError: Damaged\.[\s\S]*Caused by:\nError: SQLITE_CORRUPT/,
    );
  });
});
