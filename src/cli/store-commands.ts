/**
 * The commands about the store as a whole: `mnemo doctor`, `mnemo backup`, `mnemo restore` and
 * `mnemo migrate-store`.
 * Registered by create-program.ts; each loads its module only when it runs.
 */
import type { Command } from 'commander';

import type { CommandRun } from './create-program.js';

type On = (name: string, args: unknown[], options: object, run: CommandRun) => Promise<void>;

/** Adds `doctor`, `backup`, `restore` and `migrate-store` to `program`. */
export function registerStoreCommands(program: Command, on: On): void {
  program
    .command('migrate-store')
    .description('copy the local SQLite store into PostgreSQL (resumable; verified at the end)')
    .requiredOption(
      '--to <url>',
      'the PostgreSQL URL, postgres://user:password@host:5432/db?schema=mnemo',
    )
    .option('--json', 'print the report as JSON')
    .action((options: { to: string; json?: boolean }) =>
      on('migrate-store', [], options, async (ctx) => {
        const { migrateStore } = await import('./commands/migrate-store.js');
        await migrateStore(ctx, options);
      }),
    );

  program
    .command('doctor')
    .description(
      'check the install end to end and say how to fix what fails (exit 0 only when all pass)',
    )
    .option('--json', 'print JSON')
    .option('--verify', 'also run the integrity check (audit chain included) on every backup')
    .action((options: { json?: boolean; verify?: boolean }) =>
      on('doctor', [], options, async (ctx) => {
        const { doctor } = await import('./commands/doctor.js');
        await doctor(ctx, options);
      }),
    );

  program
    .command('backup')
    .description(
      'take a checked copy of the SQLite store beside it now (--if-due: only when the newest daily copy is a day old, as the engine does)',
    )
    .option('--if-due', 'only when the newest daily copy is a day old or more')
    .option('--json', 'print the report as JSON')
    .action((options: { ifDue?: boolean; json?: boolean }) =>
      on('backup', [], options, async (ctx) => {
        const { backup } = await import('./commands/backup.js');
        await backup(ctx, options);
      }),
    );

  program
    .command('restore')
    .description(
      'put the newest backup that passes its integrity check (or --from <file>) in place of the SQLite store; the replaced file is kept aside',
    )
    .option('--from <file>', 'the backup to restore (refused unless it passes its integrity check)')
    .option('--json', 'print the report as JSON')
    .action((options: { from?: string; json?: boolean }) =>
      on('restore', [], options, async (ctx) => {
        const { restore } = await import('./commands/restore.js');
        await restore(ctx, options);
      }),
    );
}
