/**
 * The command-line grammar: every command, argument and option of `mnemo`, and nothing else. Actions
 * hand a loader to `dispatch`, which imports the command module only when that command runs, so
 * `mnemo --help` or a hook never loads the store driver.
 */
import { readFileSync } from 'node:fs';

import { Command, Option } from 'commander';

import { CLIENT_IDS } from '../core/install/clients.js';
import { MEMORY_KINDS } from '../core/memory.js';
import { registerAnchorCommands } from './anchor-commands.js';
import type { CliContext } from './cli-context.js';
import type { ReviewCliOptions } from './commands/approve.js';
import type { ImportClaudeCodeCliOptions } from './commands/import-claude-code.js';
import type { InstallCliOptions } from './commands/install.js';
import type { LedgerCliOptions } from './commands/ledger.js';
import type { ListCliOptions } from './commands/list.js';
import type { RecallCliOptions } from './commands/recall.js';
import type { ReembedCliOptions } from './commands/reembed.js';
import type { RememberCliOptions } from './commands/remember.js';
import { registerModelCommands } from './model-commands.js';
import { collect, collectChoice, parseCount, parseLimit } from './options.js';
import { registerPageCommands } from './page-commands.js';
import { registerServerCommands } from './server-commands.js';
import { registerStoreCommands } from './store-commands.js';

/** What a parsed command line asks for. */
export interface ParsedCommand {
  name: string;
  args: unknown[];
  options: Record<string, unknown>;
}

export type CommandRun = (ctx: CliContext) => Promise<void>;
export type Dispatch = (parsed: ParsedCommand, run: CommandRun) => Promise<void>;
/** How a command's action hands its run to dispatch. */
export type CommandOn = (
  name: string,
  args: unknown[],
  options: object,
  run: CommandRun,
) => Promise<void>;

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
    .option('-f, --force', 'store it even if a similar memory exists (skip the novelty gate)')
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
    .option(
      '--context',
      'print the hits as a framed recall block (the same renderer the hooks and MCP use), for piping to an agent',
    )
    .option(
      '--explain',
      "show each hit's per-signal ranks, factors (recency, heat, trust) and score",
    )
    .addOption(
      new Option('-k, --kind <kind>', 'only this kind (repeatable)')
        .choices(MEMORY_KINDS)
        .argParser(collectChoice(MEMORY_KINDS)),
    )
    .option('-t, --tag <tag>', 'only memories with this tag (repeatable)', collect)
    .option('--origin <origin>', 'only this origin class (repeatable)', collect)
    .option(
      '--since <date>',
      'only memories created at or after this date (2026-08-01, yesterday, 3d, 2w)',
    )
    .option(
      '--until <date>',
      'only memories created at or before this date (2026-08-01, today, 12h)',
    )
    .option('--diverse', 'prefer variety over near-duplicates (MMR)')
    .action((query: string[], options: RecallCliOptions) =>
      on('recall', [query], options, async (ctx) => {
        const { recall } = await import('./commands/recall.js');
        await recall(ctx, query, options);
      }),
    );

  program
    .command('reembed')
    .description(
      'embed every memory that lacks a vector of the model, rebuilding those of an older rule (resumable; progress on stderr)',
    )
    .option('-m, --model <id>', 'the embedder (default: the configured one)')
    .option('-n, --limit <n>', 'stop after this many memories; run again to resume', parseLimit)
    .action((options: ReembedCliOptions) =>
      on('reembed', [], options, async (ctx) => {
        const { reembed } = await import('./commands/reembed.js');
        await reembed(ctx, options);
      }),
    );

  registerModelCommands(program, on);

  program
    .command('get')
    .description('show one memory in full')
    .argument('<id>', 'the memory id')
    .option('-p, --project <dir>', 'check its anchors against this project directory')
    .option('--json', 'print JSON')
    .action((id: string, options: { json?: boolean; project?: string }) =>
      on('get', [id], options, async (ctx) => {
        const { get } = await import('./commands/get.js');
        await get(ctx, id, options);
      }),
    );

  program
    .command('explain')
    .description(
      'why a memory is as it is: origin, trust, review state, gate reason, whether it is injected and why not, its code anchors, audit trail',
    )
    .argument('<id>', 'the memory id')
    .option('-p, --project <dir>', 'check its anchors against this project directory')
    .option('--json', 'print JSON')
    .action((id: string, options: { json?: boolean; project?: string }) =>
      on('explain', [id], options, async (ctx) => {
        const { explain } = await import('./commands/explain.js');
        await explain(ctx, id, options);
      }),
    );

  registerAnchorCommands(program, on);
  registerPageCommands(program, on);
  registerStoreCommands(program, on);

  program
    .command('review')
    .description('list memories awaiting review (quarantined), every project unless --project')
    .option('-p, --project <dir>', 'only this project and the global ones')
    .option('-n, --limit <n>', 'most memories to show', parseLimit, 50)
    .option('--json', 'print JSON')
    .action((options: ReviewCliOptions) =>
      on('review', [], options, async (ctx) => {
        const { review } = await import('./commands/approve.js');
        await review(ctx, options);
      }),
    );

  program
    .command('approve')
    .description('release a quarantined memory; its origin and trust band do not change')
    .argument('<id>', 'the memory id')
    .action((id: string, options: object) =>
      on('approve', [id], options, async (ctx) => {
        const { approve } = await import('./commands/approve.js');
        await approve(ctx, id);
      }),
    );

  program
    .command('reject')
    .description('reject a memory: kept for audit, gone from recall')
    .argument('<id>', 'the memory id')
    .action((id: string, options: object) =>
      on('reject', [id], options, async (ctx) => {
        const { reject } = await import('./commands/approve.js');
        await reject(ctx, id);
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
    .command('ledger')
    .description(
      'what session start and prompt recall injected, with token cost per session and day',
    )
    .option('--session <id>', 'only this Claude Code session')
    .option('--days <n>', 'days to show, today included', parseLimit, 7)
    .option('--json', 'print JSON')
    .action((options: LedgerCliOptions) =>
      on('ledger', [], options, async (ctx) => {
        const { ledger } = await import('./commands/ledger.js');
        await ledger(ctx, options);
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

  const importCmd = program
    .command('import')
    .description(
      'import memories from a JSON Lines export; validates every line before writing any ' +
        '(`import claude-code`: capture Claude Code transcripts)',
    )
    .argument('<file>', 'the export file, or - for stdin (a file named claude-code: ./claude-code)')
    .action((file: string, options: object) =>
      on('import', [file], options, async (ctx) => {
        const { importCommand } = await import('./commands/import.js');
        await importCommand(ctx, file);
      }),
    );
  importCmd
    .command('claude-code')
    .description(
      'capture the tool calls of Claude Code transcripts as the live hooks would have ' +
        '(idempotent, resumable; progress on stderr)',
    )
    .option('--path <dir>', 'the transcripts directory (default: ~/.claude/projects)')
    .option(
      '--since <date>',
      'only tool calls answered at or after this date (2026-08-01, yesterday, 3d, 2w)',
    )
    .option('-p, --project <dir>', 'store everything in this project instead of each cwd')
    .option('--dry-run', 'read and classify, write nothing (not even the resume state)')
    .option('-n, --limit <lines>', 'stop after this many lines; run again to resume', parseCount)
    .option(
      '--mend',
      'read every transcript again and give the memories an earlier import stored their source URL, ' +
        'tool and transcript time (writes nothing new)',
    )
    .action((options: ImportClaudeCodeCliOptions) =>
      on('import claude-code', [], options, async (ctx) => {
        const { importClaudeCode } = await import('./commands/import-claude-code.js');
        await importClaudeCode(ctx, options);
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

  program
    .command('hook')
    .description(
      'Claude Code hook entry point (session-start, post-tool-use, post-tool-use-failure, ' +
        'pre-tool-use, user-prompt-submit, pre-compact, session-end): reads the event JSON on stdin, ' +
        'always exits 0. With --client cursor|gemini, the event is that client’s own event name',
    )
    .option('--client <client>', 'the client whose hook payload this is (cursor, gemini)')
    .argument('<event>', 'the hook event, kebab-case (or the client’s event name)')
    .action((event: string, options: { client?: string }) =>
      on('hook', [event], options, async (ctx) => {
        const { hook } = await import('./commands/hook.js');
        await hook(ctx, event, options.client);
      }),
    );

  registerServerCommands(program, on);

  const scopeOption = () =>
    new Option('-s, --scope <scope>', 'user (every project, private) or project (this repository)')
      .choices(['user', 'project'])
      .default('user');
  const clientOption = () =>
    new Option('--client <client>', 'the client to register with (default claude-code)')
      .choices([...CLIENT_IDS])
      .default('claude-code');

  program
    .command('install')
    .description(
      'register the hooks and the MCP server with Claude Code or another client (idempotent; backs up ' +
        'and prints a diff)',
    )
    .addOption(clientOption())
    .addOption(scopeOption())
    .option('--dry-run', 'print the diff and write nothing')
    .option(
      '--command <cmd>',
      'how the client should start mnemo (default: the launcher $MNEMO_HOME/bin/mnemo)',
    )
    .action((options: InstallCliOptions & { command?: string }) =>
      on('install', [], options, async (ctx) => {
        const { install } = await import('./commands/install.js');
        await install(ctx, options);
      }),
    );

  program
    .command('uninstall')
    .description(
      'remove what `mnemo install` registered; untouched files are restored byte for byte',
    )
    .addOption(clientOption())
    .addOption(scopeOption())
    .option('--dry-run', 'print the diff and write nothing')
    .action((options: InstallCliOptions) =>
      on('uninstall', [], options, async (ctx) => {
        const { uninstall } = await import('./commands/uninstall.js');
        await uninstall(ctx, options);
      }),
    );

  return program;
}

function packageVersion(): string {
  // package.json sits two levels above both src/cli and dist/cli.
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
