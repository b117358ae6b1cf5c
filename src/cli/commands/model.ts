import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadConfig } from '../../config/config.js';
import { MemoryError } from '../../core/errors.js';
import { inspectModelDir, listModels, modelDir } from '../../embed/model-cache.js';
import { BUILTIN_EMBEDDERS, isBuiltinEmbedder } from '../../embed/open-embedder.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { createProgressBar } from '../progress.js';

/** `mnemo model list`: packaged embedders and the model cache, with the active choices marked. */
export async function modelList(ctx: CliContext, options: { json?: boolean }): Promise<void> {
  const config = loadConfig({ env: ctx.io.env });
  const cached = listModels(config.home);
  if (options.json === true) {
    const body = {
      active: config.embeddingModel,
      reranker: config.rerankerModel,
      builtin: BUILTIN_EMBEDDERS,
      cached,
    };
    await writeOut(ctx.io.stdout, `${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const mark = (id: string) =>
    id === config.embeddingModel ? '* ' : id === config.rerankerModel ? 'r ' : '  ';
  let text = `Embedders (* active, r reranker); cache: ${join(config.home, 'models')}\n`;
  for (const id of BUILTIN_EMBEDDERS) text += `${mark(id)}${id}  packaged\n`;
  for (const m of cached) {
    const state =
      m.missing.length === 0
        ? `${m.role}, ${m.hiddenSize ?? '?'}-d, ${m.weights}`
        : `incomplete: missing ${m.missing.join(', ')}`;
    text += `${mark(m.id)}${m.id}  ${state}\n`;
  }
  if (
    !isBuiltinEmbedder(config.rerankerModel) &&
    !cached.some((m) => m.id === config.rerankerModel)
  ) {
    text += `rerank: off (no ${config.rerankerModel} in the cache)\n`;
  }
  await writeOut(ctx.io.stdout, text);
}

/**
 * `mnemo model use <id>`: records the embedder in `$MNEMO_HOME/config.json` after checking that it is
 * packaged or a complete encoder directory in the cache. Other fields of the file are kept.
 */
export async function modelUse(ctx: CliContext, id: string): Promise<void> {
  const config = loadConfig({ env: ctx.io.env });
  if (!isBuiltinEmbedder(id)) {
    const info = inspectModelDir(id, modelDir(config.home, id));
    if (info.missing.length > 0) {
      throw new MemoryError(
        'NOT_FOUND',
        `No complete model ${id} in ${info.dir} (missing ${info.missing.join(', ')}). ` +
          `Run \`mnemo model pull ${id}\` or copy the model directory there; \`mnemo model list\` shows what is available.`,
      );
    }
    if (info.role === 'reranker') {
      throw new MemoryError(
        'INVALID_INPUT',
        `${id} is a cross-encoder (sequence classification), not a sentence embedder. Set it as "rerankerModel" in config.json instead.`,
      );
    }
  }
  const path = join(config.home, 'config.json');
  const current = readJsonObject(path);
  current.embeddingModel = id;
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
  // Validate the whole file as mnemo will read it, so a bad edit is reported now rather than later.
  loadConfig({ env: ctx.io.env });
  await writeOut(
    ctx.io.stdout,
    `Embedder set to ${id}. Recall now embeds with it; run \`mnemo reembed\` to embed existing memories.\n`,
  );
}

/** `mnemo model pull <id>`: downloads a model into the cache with a progress bar on stderr. */
export async function modelPull(
  ctx: CliContext,
  id: string,
  options: { force?: boolean },
): Promise<void> {
  const config = loadConfig({ env: ctx.io.env });
  const { pullModel } = await import('../../embed/pull-model.js');
  const bar = createProgressBar(ctx.io.stderr, `pull ${id}`);
  let current = '';
  try {
    const host = ctx.io.env.MNEMO_MODEL_HOST;
    const dir = await pullModel({
      home: config.home,
      id,
      ...(host === undefined || host.trim() === '' ? {} : { host }),
      force: options.force === true,
      onProgress: (file, loaded, total) => {
        if (file !== current) {
          if (current !== '') bar.finish();
          current = file;
        }
        bar.update(
          Math.round(loaded / 1024),
          total === null ? null : Math.round(total / 1024),
          `KiB ${file}`,
        );
      },
    });
    bar.finish();
    await writeOut(
      ctx.io.stdout,
      `Pulled ${id} into ${dir}. Use it with \`mnemo model use ${id}\`.\n`,
    );
  } finally {
    bar.finish();
  }
}

function readJsonObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MemoryError('CONFIG_INVALID', `${path} is not a JSON object. Fix or remove it.`);
  }
  return value as Record<string, unknown>;
}
