import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import { MemoryError } from '../../core/errors.js';
import type { CliContext } from '../cli-context.js';
import { readAllBytes, writeOut } from '../cli-io.js';
import { importLines, parseExport } from '../export-format.js';

/** `mnemo import <file|->`: validates the whole export, then imports it line by line. */
export async function importCommand(ctx: CliContext, file: string): Promise<void> {
  const source = file === '-' ? 'stdin' : file;
  const bytes = file === '-' ? await readAllBytes(ctx.io.stdin) : await readInput(ctx, file);
  const lines = parseExport(bytes, source);
  const app = await ctx.openApp();
  const report = await importLines(app.store, lines);
  app.log.info('imported', { source, imported: report.imported, skipped: report.skipped });
  const perLine = report.results
    .map(
      ({ line, id, outcome }) =>
        `line ${line}  ${id}  ${outcome === 'imported' ? 'imported' : 'skipped (id already present)'}\n`,
    )
    .join('');
  await writeOut(
    ctx.io.stdout,
    `${perLine}Imported ${report.imported}, skipped ${report.skipped} from ${source}.\n`,
  );
}

async function readInput(ctx: CliContext, file: string): Promise<Buffer> {
  try {
    return await readFile(resolve(ctx.io.cwd, file));
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Cannot read ${file} (${(error as Error).message}). Check the path, or pass - to read stdin.`,
      { cause: error },
    );
  }
}
