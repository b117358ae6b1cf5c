/**
 * `mnemo pages write` and `mnemo pages read`: the curated project page (docs/pages.md). Registered by
 * create-program.ts; the command module loads only when one of them runs.
 */
import type { Command } from 'commander';

import type { PagesReadOptions, PagesWriteOptions } from './commands/pages.js';
import type { CommandRun } from './create-program.js';

type On = (name: string, args: unknown[], options: object, run: CommandRun) => Promise<void>;

/** Adds `pages` with its `write` and `read` subcommands to `program`. */
export function registerPageCommands(program: Command, on: On): void {
  const pages = program
    .command('pages')
    .description(
      'the project page: trusted memories as reviewable Markdown beside CLAUDE.md, and edits of it back into memories',
    );
  pages
    .command('write')
    .description(
      'render the page from memories you wrote or approved into MNEMO.md (or the page section of --into), keeping the rest of the file byte for byte',
    )
    .option('-p, --project <dir>', 'the project (default: the current directory)')
    .option('--into <file>', 'write the page as a marked section of this file, e.g. CLAUDE.md')
    .option(
      '-f, --force',
      'replace the section even if it holds edits not read back yet (they are lost)',
    )
    .option('--check', 'write nothing; exit 1 unless the file is up to date')
    .option('--dry-run', 'print the page section and write nothing')
    .option('--json', 'print JSON')
    .action((options: PagesWriteOptions) =>
      on('pages write', [], options, async (ctx) => {
        const { pagesWrite } = await import('./commands/pages.js');
        await pagesWrite(ctx, options);
      }),
    );
  pages
    .command('read')
    .description(
      'turn edits of the page into your memories: added entries, changed ones (superseded, history kept), deleted ones (forgotten); shows the plan, applies it only with --apply or a yes at a terminal',
    )
    .option('-p, --project <dir>', 'the project (default: the current directory)')
    .option(
      '--from <file>',
      'the file holding the page (default: MNEMO.md, or CLAUDE.md when it holds it)',
    )
    .option('-y, --apply', 'apply the plan without asking (alias --yes)')
    .option('--yes', 'same as --apply')
    .option('--json', 'print JSON')
    .action((options: PagesReadOptions & { yes?: boolean }) =>
      on('pages read', [], options, async (ctx) => {
        const { pagesRead } = await import('./commands/pages.js');
        await pagesRead(ctx, { ...options, apply: options.apply === true || options.yes === true });
      }),
    );
}
