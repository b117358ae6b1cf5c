import { adoptVectorRule, caughtUp, embedPending } from '../../retrieval/embed-pending.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { createProgressBar } from '../progress.js';

export interface ReembedCliOptions {
  model?: string;
  batch?: number;
  /** Stop after this many memories (a bounded run; the next run resumes). */
  limit?: number;
}

/** Memories per embedder call: USE lite's fastest batch size (see use-embedder.ts). */
export const REEMBED_BATCH = 32;

/**
 * `mnemo reembed [--model id]`: embeds every active memory that has no vector of the model, in batches,
 * with a progress bar on stderr. Vectors built by an earlier rule (embed-pending.ts) are dropped first
 * and rebuilt with the rest, and it says how many. Resumable: progress is the vectors already stored, so
 * an interrupted run (Ctrl-C stops after the current batch) continues where it stopped and embeds
 * nothing twice.
 */
export async function reembed(ctx: CliContext, options: ReembedCliOptions): Promise<void> {
  const app = await ctx.openApp();
  const { openEmbedder } = await import('../../embed/open-embedder.js');
  const embedder = await openEmbedder({
    home: app.config.home,
    embeddingModel: options.model ?? app.config.embeddingModel,
  });
  const adopted = await adoptVectorRule(app.store, embedder);
  const pending = (await app.store.listUnembedded(embedder.model, Number.MAX_SAFE_INTEGER)).length;
  if (adopted.dropped > 0) {
    const by = adopted.droppedRule === null ? 'an older rule' : `rule ${adopted.droppedRule}`;
    await writeOut(
      ctx.io.stdout,
      `${adopted.dropped} ${embedder.model} vectors were built by ${by}, which recall does not ` +
        `use: dropped, to be rebuilt by rule ${adopted.rule}.\n`,
    );
  } else if (adopted.unrebuilt > 0 && pending > 0) {
    await writeOut(
      ctx.io.stdout,
      `${adopted.unrebuilt} ${embedder.model} vectors of an older rule were dropped earlier and are ` +
        `not all rebuilt: embedding the memories without one by rule ${adopted.rule}.\n`,
    );
  }
  const max = Math.min(pending, options.limit ?? pending);
  if (max === 0) {
    if (adopted.unrebuilt > 0) await caughtUp(app.store, embedder.model);
    await writeOut(
      ctx.io.stdout,
      `Every memory already has a ${embedder.model} vector (rule ${adopted.rule}).\n`,
    );
    return;
  }
  let stop = false;
  const onSigint = () => {
    stop = true;
  };
  process.once('SIGINT', onSigint);
  const bar = createProgressBar(ctx.io.stderr, `reembed ${embedder.model}`);
  bar.update(0, max);
  try {
    const report = await embedPending(app.store, embedder, {
      max,
      batchSize: options.batch ?? REEMBED_BATCH,
      onProgress: (done) => bar.update(done, max),
      shouldStop: () => stop,
    });
    bar.finish();
    const left = pending - report.embedded;
    const skipped = report.skipped > 0 ? `, ${report.skipped} without features skipped` : '';
    await writeOut(
      ctx.io.stdout,
      `Embedded ${report.embedded} memories with ${embedder.model}${skipped}.` +
        (left > report.skipped
          ? ` ${left - report.skipped} left: run \`mnemo reembed\` again to resume.\n`
          : '\n'),
    );
  } finally {
    bar.finish();
    process.removeListener('SIGINT', onSigint);
  }
}
