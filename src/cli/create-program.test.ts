import { describe, expect, it } from 'vitest';

import { createProgram, type ParsedCommand } from './create-program.js';

/** Parses without running anything: the dispatch records what the command line asked for. */
async function parse(...argv: string[]): Promise<ParsedCommand & { verbose: boolean }> {
  let parsed: ParsedCommand | undefined;
  const program = createProgram(
    (command) => {
      parsed = command;
      return Promise.resolve();
    },
    { writeErr: () => undefined, writeOut: () => undefined },
  );
  await program.parseAsync(argv, { from: 'user' });
  if (parsed === undefined) throw new Error('no command dispatched');
  return { ...parsed, verbose: program.opts<{ verbose?: boolean }>().verbose === true };
}

async function parseError(...argv: string[]): Promise<string> {
  let stderr = '';
  const program = createProgram(() => Promise.resolve(), {
    writeErr: (text) => void (stderr += text),
    writeOut: () => undefined,
  });
  await expect(program.parseAsync(argv, { from: 'user' })).rejects.toThrow();
  return stderr;
}

describe('createProgram', () => {
  it('collects remember text, repeatable tags, kind, project and global', async () => {
    expect(
      await parse(
        'remember',
        'use',
        'pnpm',
        '-t',
        'a',
        '--tag',
        'b',
        '-k',
        'decision',
        '-p',
        'dir',
        '-g',
      ),
    ).toMatchObject({
      name: 'remember',
      args: [['use', 'pnpm']],
      options: { tag: ['a', 'b'], kind: 'decision', project: 'dir', global: true },
    });
  });

  it('parses ledger options with a default of 7 days and refuses a day count of 0', async () => {
    expect(await parse('ledger')).toMatchObject({ name: 'ledger', options: { days: 7 } });
    expect((await parse('ledger', '--session', 's1', '--days', '30', '--json')).options).toEqual({
      session: 's1',
      days: 30,
      json: true,
    });
    expect(await parseError('ledger', '--days', '0')).toMatch(/--days <n>.*whole number/);
  });

  it('parses ui options: a port from 0 to 65535, --open and --project, the port left to the config', async () => {
    expect(await parse('ui')).toMatchObject({ name: 'ui', options: {} });
    expect((await parse('ui', '--port', '0', '--open', '-p', 'dir')).options).toEqual({
      port: 0,
      open: true,
      project: 'dir',
    });
    expect((await parse('ui', '--port', '8080')).options).toEqual({ port: 8080 });
    for (const bad of ['65536', '-1', 'http', '80.5']) {
      expect(await parseError('ui', '--port', bad), bad).toMatch(/--port <n>.*port from 0/);
    }
  });

  it('accepts `-` as the remember text (stdin)', async () => {
    expect((await parse('remember', '-')).args).toEqual([['-']]);
  });

  it('parses recall limits as numbers and leaves the default to the config', async () => {
    expect((await parse('recall', 'a', 'b', '--limit', '5', '--json')).options).toEqual({
      limit: 5,
      json: true,
    });
    expect((await parse('recall', 'a')).options).toEqual({});
  });

  it('defaults the list limit to 50', async () => {
    expect((await parse('list')).options).toEqual({ limit: 50 });
  });

  it('accepts --verbose before or after the command', async () => {
    expect((await parse('-v', 'stats')).verbose).toBe(true);
    expect((await parse('stats', '--verbose', '--json')).verbose).toBe(true);
    expect((await parse('stats')).verbose).toBe(false);
  });

  it.each([
    [['get', '01ARZ3NDEKTSV4RRFFQ69G5FAV'], 'get', ['01ARZ3NDEKTSV4RRFFQ69G5FAV']],
    [['forget', 'x'], 'forget', ['x']],
    [['export', '--out', 'f.jsonl'], 'export', []],
    [['import', '-'], 'import', ['-']],
    [['import', './claude-code'], 'import', ['./claude-code']],
    [['demo', '--home', 'h'], 'demo', []],
  ])('dispatches %j to %s', async (argv, name, args) => {
    expect(await parse(...argv)).toMatchObject({ name, args });
  });

  it('parses `import claude-code` with its options, leaving `import <file>` to the export importer', async () => {
    expect(
      await parse(
        'import',
        'claude-code',
        '--path',
        'dir',
        '--since',
        '2026-08-01',
        '-p',
        'proj',
        '--dry-run',
        '--limit',
        '5000',
      ),
    ).toMatchObject({
      name: 'import claude-code',
      args: [],
      options: { path: 'dir', since: '2026-08-01', project: 'proj', dryRun: true, limit: 5000 },
    });
    expect((await parse('import', 'claude-code')).options).toEqual({});
  });

  it.each([
    [
      ['recall', 'x', '--limit', 'abc'],
      /argument 'abc' is invalid\. Give a whole number from 1 to 1000/,
    ],
    [['recall', 'x', '--limit', '1001'], /Give a whole number from 1 to 1000/],
    [['remember', 'x', '--kind', 'gossip'], /Allowed choices are note, decision/],
    [['list', '--all', '--project', 'p'], /cannot be used with/],
    [['remember'], /missing required argument 'text'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['import', 'claude-code', '--limit', '0'], /Give a whole number of at least 1/],
    [['import', 'claude-code', 'extra'], /too many arguments for 'claude-code'/],
  ])('refuses %j with a usage message', async (argv, message) => {
    const stderr = await parseError(...argv);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('mnemo --help');
  });
});
