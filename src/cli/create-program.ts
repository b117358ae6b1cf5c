/**
 * The command-line grammar: every command, argument and option of `mnemo`, and nothing else. Actions
 * hand a loader to `dispatch`, which imports the command module only when that command runs, so
 * `mnemo --help` or a hook never loads the store driver.
 */
import { readFileSync } from 'node:fs';

import { Command, Option } from 'commander';

import { MEMORY_KINDS } from '../core/memory.js';
import type { CliContext } from './cli-context.js';
import type { ListCliOptions } from './commands/list.js';
import type { RecallCliOptions } from './commands/recall.js';
import type { RememberCliOptions } from './commands/remember.js';
import { collect, parseLimit } from './options.js';

/** What a parsed command line asks for. */
export interface ParsedCommand {
  name: string;
  args: unknown[];
  options: Record<string, unknown>;
}

export type CommandRun = (ctx: CliContext) => Promise<void>;
export type Dispatch = (parsed: ParsedCommand, run: CommandRun) => Promise<void>;

/** Where commander prints help, version and usage errors. */
export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/**
 * Builds the program. Parse tests pass a dispatch that records instead of running. `output` is set
 * before the commands are added because commander copies it into each subcommand on creation.
 */
export function createProgram(dispatch: Dispatch, output?: ProgramOutput): Command {
  const program = new Command('mnemo');
  if (output !== undefined) program.configureOutput(output);
  program
    .description('Persistent memory for AI coding agents.')
    .version(packageVersion(), '-V, --version')
    .option('-v, --verbose', 'log to stderr and print stacks on errors')
    .showHelpAfterError('(run `mnemo --help` for usage)')
    .exitOverride();

  const on = (name: string, args: unknown[], options: object, run: CommandRun) =>
    dispatch({ name, args, options: { ...options } }, run);

  program
    .command('remember')
    .description(
      'store a memory in the current project (or globally); `-` reads the text from stdin',
    )
    .argument('<text...>', 'the text to remember, or - for stdin')
    .option('-t, --tag <tag>', 'a tag (repeatable)', collect)
    .addOption(new Option('-k, --kind <kind>', 'what sort of memory').choices(MEMORY_KINDS))
    .option('-p, --project <dir>', 'the project it belongs to (default: the current directory)')
    .option('-g, --global', 'visible from every project')
    .action((text: string[], options: RememberCliOptions) =>
      on('remember', [text], options, async (ctx) => {
        const { remember } = await import('./commands/remember.js');
        await remember(ctx, text, options);
      }),
    );

  program
    .command('recall')
    .description('search the memories of the current project and the global ones')
    .argument('<query...>', 'words to search for')
    .option('-n, --limit <n>', 'most hits to show (default from config: 10)', parseLimit)
    .option('-p, --project <dir>', 'the project to search (default: the current directory)')
    .option('--json', 'print JSON')
    .action((query: string[], options: RecallCliOptions) =>
      on('recall', [query], options, async (ctx) => {
        const { recall } = await import('./commands/recall.js');
        await recall(ctx, query, options);
      }),
    );

  program
    .command('get')
    .description('show one memory in full')
    .argument('<id>', 'the memory id')
    .option('--json', 'print JSON')
    .action((id: string, options: { json?: boolean }) =>
      on('get', [id], options, async (ctx) => {
        const { get } = await import('./commands/get.js');
        await get(ctx, id, options);
      }),
    );

  program
    .command('forget')
    .description('delete one memory')
    .argument('<id>', 'the memory id')
    .action((id: string, options: object) =>
      on('forget', [id], options, async (ctx) => {
        const { forget } = await import('./commands/forget.js');
        await forget(ctx, id);
      }),
    );

  program
    .command('list')
    .description('list recent memories of the current project and the global ones')
    .option('-p, --project <dir>', 'the project to list (default: the current directory)')
    .addOption(new Option('-a, --all', 'every project').conflicts('project'))
    .option('-n, --limit <n>', 'most memories to show', parseLimit, 50)
    .option('--json', 'print JSON')
    .action((options: ListCliOptions) =>
      on('list', [], options, async (ctx) => {
        const { list } = await import('./commands/list.js');
        await list(ctx, options);
      }),
    );

  program
    .command('stats')
    .description('counts by kind, origin and project; store location and size')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      on('stats', [], options, async (ctx) => {
        const { stats } = await import('./commands/stats.js');
        await stats(ctx, options);
      }),
    );

  program
    .command('export')
    .description('write every memory as JSON Lines (stdout by default)')
    .option('-o, --out <file>', 'write to this file instead (replaced atomically)')
    .action((options: { out?: string }) =>
      on('export', [], options, async (ctx) => {
        const { exportCommand } = await import('./commands/export.js');
        await exportCommand(ctx, options);
      }),
    );

  program
    .command('import')
    .description(
      'import memories from a JSON Lines export; validates every line before writing any',
    )
    .argument('<file>', 'the export file, or - for stdin')
    .action((file: string, options: object) =>
      on('import', [file], options, async (ctx) => {
        const { importCommand } = await import('./commands/import.js');
        await importCommand(ctx, file);
      }),
    );

  program
    .command('demo')
    .description('try mnemo on a scratch store: remember a few memories, then recall them')
    .option('--home <dir>', 'use this directory as the store home (default: a new temp directory)')
    .action((options: { home?: string }) =>
      on('demo', [], options, async (ctx) => {
        const { demo } = await import('./commands/demo.js');
        await demo(ctx, options);
      }),
    );

  return program;
}

function packageVersion(): string {
  // package.json sits two levels above both src/cli and dist/cli.
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
