/**
 * The commands about embedding models: `mnemo model list | pull | words | use`. Registered by
 * create-program.ts; each loads its module only when it runs.
 */
import type { Command } from 'commander';

import type { CommandOn } from './create-program.js';

/** Adds `model` and its subcommands to `program`. */
export function registerModelCommands(program: Command, on: CommandOn): void {
  const model = program.command('model').description('embedding models: list, pull, use');
  model
    .command('list')
    .description('packaged embedders and the model cache; the active one is marked')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      on('model list', [], options, async (ctx) => {
        const { modelList } = await import('./commands/model.js');
        await modelList(ctx, options);
      }),
    );
  model
    .command('pull')
    .description('download a model (owner/name) from the model hub into the model cache')
    .argument('<id>', 'the model id, e.g. Xenova/all-MiniLM-L6-v2')
    .option('--force', 'download again over an existing copy')
    .action((id: string, options: { force?: boolean }) =>
      on('model pull', [id], options, async (ctx) => {
        const { modelPull } = await import('./commands/model.js');
        await modelPull(ctx, id, options);
      }),
    );
  model
    .command('words')
    .description(
      'build the word-vector table of the words leg from the optional GloVe package (once)',
    )
    .option('--force', 'rebuild it even if it exists')
    .action((options: { force?: boolean }) =>
      on('model words', [], options, async (ctx) => {
        const { modelWords } = await import('./commands/model-words.js');
        await modelWords(ctx, options);
      }),
    );
  model
    .command('use')
    .description(
      'make a packaged embedder or a cached model the embedder (recorded in config.json)',
    )
    .argument('<id>', 'use-lite-512, hash, or a model id from `mnemo model list`')
    .action((id: string, options: object) =>
      on('model use', [id], options, async (ctx) => {
        const { modelUse } = await import('./commands/model.js');
        await modelUse(ctx, id);
      }),
    );
}
