/**
 * The commands about code anchors: `mnemo stale` and `mnemo reverify`. Registered by create-program.ts;
 * each loads its module only when it runs.
 */
import type { Command } from 'commander';

import type { CommandRun } from './create-program.js';

type On = (name: string, args: unknown[], options: object, run: CommandRun) => Promise<void>;

/** Adds `stale` and `reverify` to `program`. */
export function registerAnchorCommands(program: Command, on: On): void {
  program
    .command('stale')
    .description(
      "list the project's memories whose cited files changed, moved or were deleted, and why",
    )
    .option('-p, --project <dir>', 'the project directory (default: the current one)')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean; project?: string }) =>
      on('stale', [], options, async (ctx) => {
        const { stale } = await import('./commands/stale.js');
        await stale(ctx, options);
      }),
    );

  program
    .command('reverify')
    .description(
      'confirm a memory still holds: re-anchor it to its cited files as they are now (audited)',
    )
    .argument('<id>', 'the memory id')
    .option('-p, --project <dir>', 'the project directory (default: the current one)')
    .option('--json', 'print JSON')
    .action((id: string, options: { json?: boolean; project?: string }) =>
      on('reverify', [id], options, async (ctx) => {
        const { reverify } = await import('./commands/reverify.js');
        await reverify(ctx, id, options);
      }),
    );
}
