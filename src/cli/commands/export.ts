import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';

import type { MemoryStore } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { toExportLine } from '../export-format.js';

/** Streams every memory as an export line to `write`; returns how many. */
export async function writeExport(
  store: MemoryStore,
  write: (text: string) => Promise<void>,
): Promise<number> {
  let count = 0;
  for await (const record of store.exportMemories()) {
    await write(toExportLine(record));
    count += 1;
  }
  return count;
}

/**
 * `mnemo export [--out f]`: JSON Lines on stdout, or into `f` through a temporary file renamed into
 * place, so an interrupted export never leaves a truncated file that looks complete.
 */
export async function exportCommand(ctx: CliContext, options: { out?: string }): Promise<void> {
  const app = await ctx.openApp();
  if (options.out === undefined) {
    const count = await writeExport(app.store, (text) => writeOut(ctx.io.stdout, text));
    app.log.info('exported', { count, to: 'stdout' });
    return;
  }
  const target = resolve(ctx.io.cwd, options.out);
  const temp = `${target}.${process.pid}.tmp`;
  const file = await open(temp, 'wx', 0o600);
  let count: number;
  try {
    count = await writeExport(app.store, async (text) => {
      await file.write(text);
    });
    await file.sync();
    await file.close();
    await rename(temp, target);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  app.log.info('exported', { count, to: target });
  // stdout stays free for data; the summary is a message to the person.
  ctx.io.stderr.write(`Exported ${count} memories to ${target}\n`);
}
