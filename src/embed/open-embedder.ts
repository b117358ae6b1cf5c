/**
 * Picks the embedder and reranker a config names. The heavy providers are imported only when chosen, so
 * a process that never embeds (a hook) never pays for them.
 */
import type { Embedder } from '../ports/embedder.js';
import type { Reranker } from '../ports/reranker.js';
import { HashEmbedder } from './hash-embedder.js';
import { assertModelId, modelDir } from './model-cache.js';

/** Embedders that ship with mnemo and need no model directory. */
export const BUILTIN_EMBEDDERS = ['use-lite-512', 'hash'] as const;

export interface EmbedderChoice {
  home: string;
  embeddingModel: string;
}

/** True when `id` names a packaged embedder rather than a directory in the model cache. */
export function isBuiltinEmbedder(id: string): boolean {
  return (BUILTIN_EMBEDDERS as readonly string[]).includes(id);
}

/**
 * The embedder of `config.embeddingModel`. Nothing is loaded yet (the model loads on the first
 * `embed`). Throws INVALID_INPUT when a cache model is missing or incomplete, naming the fix.
 */
export async function openEmbedder(config: EmbedderChoice): Promise<Embedder> {
  const id = config.embeddingModel;
  if (id === 'hash') return new HashEmbedder();
  if (id === 'use-lite-512') {
    const { UseEmbedder } = await import('./use-embedder.js');
    return new UseEmbedder();
  }
  const { openOnnxEmbedder } = await import('./onnx-embedder.js');
  return openOnnxEmbedder({ id: assertModelId(id), dir: modelDir(config.home, id) });
}

/** The reranker of `config.rerankerModel` when its directory is complete; otherwise undefined (off). */
export async function openReranker(config: {
  home: string;
  rerankerModel: string;
}): Promise<Reranker | undefined> {
  const id = assertModelId(config.rerankerModel);
  const { openOnnxReranker } = await import('./onnx-reranker.js');
  return openOnnxReranker(id, modelDir(config.home, id));
}
