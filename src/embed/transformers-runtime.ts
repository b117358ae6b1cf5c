/**
 * The one door to `@huggingface/transformers` (ONNX Runtime underneath). Imported lazily: the package
 * costs ~0.3 s and ~100 MB to load, which only a process that embeds may pay (never a hook). Remote
 * downloads are switched off for every load: a model is read from its local directory or not at all;
 * `mnemo model pull` is the only way a model arrives from the network.
 */
import { basename, dirname } from 'node:path';

import type * as TransformersModule from '@huggingface/transformers';

import { MemoryError } from '../core/errors.js';
import type { ModelDirInfo } from './model-cache.js';

export type Transformers = typeof TransformersModule;

let runtime: Promise<Transformers> | undefined;
// transformers.js resolves local models through the global `env.localModelPath`, so loads are run one at
// a time and each sets the path it needs right before it starts.
let loadQueue: Promise<unknown> = Promise.resolve();

/** The transformers module, configured for local-only loading. */
export function loadTransformers(): Promise<Transformers> {
  runtime ??= import('@huggingface/transformers')
    .then((transformers) => {
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      return transformers;
    })
    .catch((error: unknown) => {
      runtime = undefined;
      throw new MemoryError(
        'EMBEDDING_FAILED',
        'Could not load @huggingface/transformers (ONNX Runtime). Reinstall dependencies (`npm ci`) or switch the embedder with `mnemo model use use-lite-512`.',
        { cause: error },
      );
    });
  return runtime;
}

/**
 * Runs `load(transformers, modelName)` with `env.localModelPath` pointing at the parent of `info.dir`,
 * serialised with every other load. `modelName` is the directory's last segment.
 */
export function withLocalModel<T>(
  info: ModelDirInfo,
  load: (transformers: Transformers, modelName: string) => Promise<T>,
): Promise<T> {
  const run = async (): Promise<T> => {
    const transformers = await loadTransformers();
    transformers.env.localModelPath = `${dirname(info.dir)}/`;
    try {
      return await load(transformers, basename(info.dir));
    } catch (error) {
      if (error instanceof MemoryError) throw error;
      throw new MemoryError(
        'EMBEDDING_FAILED',
        `Could not load the model ${info.id} from ${info.dir} (${(error as Error).message}). ` +
          'Check that the directory holds a complete transformers.js model, or pull it again with `mnemo model pull`.',
        { cause: error },
      );
    }
  };
  const result = loadQueue.then(run, run);
  loadQueue = result.catch(() => undefined);
  return result;
}

/** The transformers.js `dtype` for a weight file. */
export function dtypeOf(info: ModelDirInfo): 'q8' | 'fp32' {
  return info.weights === 'onnx/model_quantized.onnx' ? 'q8' : 'fp32';
}
