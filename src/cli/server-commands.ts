/**
 * The commands that run a server rather than a one-shot action: the MCP server, the resident engine and
 * the web viewer. Registered by create-program.ts; each loads its module only when it runs.
 */
import { type Command, Option } from 'commander';

import type { ServeCliOptions } from './commands/serve.js';
import type { UiCliOptions } from './commands/ui.js';
import type { CommandRun } from './create-program.js';
import { parseDuration, parsePort } from './options.js';

type On = (name: string, args: unknown[], options: object, run: CommandRun) => Promise<void>;

/** Adds `mcp`, `serve` and `ui` to `program`. */
export function registerServerCommands(program: Command, on: On): void {
  program
    .command('mcp')
    .description('MCP server on stdio for AI clients (stdout carries protocol only)')
    .action((options: object) =>
      on('mcp', [], options, async (ctx) => {
        const { mcp } = await import('./commands/mcp.js');
        await mcp(ctx);
      }),
    );

  program
    .command('serve')
    .description(
      'the resident engine (embeddings, spool drain, hybrid recall for hooks): starts it in the background',
    )
    .option('--foreground', 'run here until SIGTERM/SIGINT, a stop request or the idle timeout')
    .option(
      '--idle-exit <duration>',
      'exit after this long without requests or work, e.g. 30s, 15m (0: never; default from config)',
      parseDuration,
    )
    .addOption(
      new Option('--status', "print the running engine's status").conflicts(['stop', 'foreground']),
    )
    .addOption(new Option('--stop', 'stop the running engine').conflicts('foreground'))
    .action((options: ServeCliOptions) =>
      on('serve', [], options, async (ctx) => {
        const { serve } = await import('./commands/serve.js');
        await serve(ctx, options);
      }),
    );

  program
    .command('ui')
    .description('the web viewer on 127.0.0.1: search, review, injection ledger, dashboard')
    .option('--port <n>', 'listen on this port (0: any free one; default 7477)', parsePort)
    .option('--open', 'open it in the default browser')
    .option('-p, --project <dir>', 'the project it opens on (default: the current directory)')
    .action((options: UiCliOptions) =>
      on('ui', [], options, async (ctx) => (await import('./commands/ui.js')).ui(ctx, options)),
    );
}
