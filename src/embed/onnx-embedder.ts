/**
 * Sentence embeddings from an ONNX encoder (MiniLM, bge, nomic class) in a local model directory,
 * through transformers.js: tokenise, run, mean-pool over the attention mask, L2-normalise. The model is
 * loaded on the first `embed` and shared by every embedder of the same directory in the process.
 */
import { MemoryError } from '../core/errors.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import type { Embedder } from '../ports/embedder.js';
import { inspectModelDir, type ModelDirInfo } from './model-cache.js';
import { dtypeOf, withLocalModel } from './transformers-runtime.js';

/**
 * Texts per model call. Padding makes a batch cost as much as its longest text times its size, so
 * batches stay modest; 16 bounds one call's tensors (16 × 512 tokens × 384 floats ≈ 12 MB for MiniLM).
 */
export const ONNX_BATCH_SIZE = 16;

/** Characters embedded per text; the tokenizer truncates at the model's 512 tokens anyway. */
export const ONNX_MAX_INPUT_CHARS = 4_096;

export interface OnnxEmbedderOptions {
  /** The model id (`owner/name`), recorded with every vector (with `@q8` for quantized weights). */
  id: string;
  dir: string;
  batchSize?: number;
}

type Extractor = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<{ dims: number[]; data: ArrayLike<number> }>;

const extractors = new Map<string, Promise<Extractor>>();

/**
 * Checks the directory and returns an embedder for it without loading the model. The dimension comes
 * from `config.json` (`hidden_size`) and is verified against the first output. Throws INVALID_INPUT
 * naming the missing files when the directory is incomplete.
 */
export function openOnnxEmbedder(options: OnnxEmbedderOptions): OnnxEmbedder {
  const info = inspectModelDir(options.id, options.dir);
  if (info.missing.length > 0) {
    throw new MemoryError(
      'INVALID_INPUT',
      `The model directory ${options.dir} is incomplete (missing ${info.missing.join(', ')}). ` +
        `Run \`mnemo model pull ${options.id}\` or copy a complete transformers.js model there.`,
    );
  }
  if (info.hiddenSize === null || !(info.hiddenSize > 0)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${options.dir}/config.json has no hidden_size, so the embedding width is unknown. Use a sentence-embedding model directory.`,
    );
  }
  return new OnnxEmbedder(info, info.hiddenSize, options.batchSize ?? ONNX_BATCH_SIZE);
}

/** `Embedder` over an ONNX encoder. Build it with `openOnnxEmbedder`. */
export class OnnxEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  readonly #info: ModelDirInfo;
  readonly #batchSize: number;

  constructor(info: ModelDirInfo, dims: number, batchSize: number) {
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new MemoryError(
        'INVALID_INPUT',
        `batchSize must be a positive integer, got ${batchSize}.`,
      );
    }
    this.#info = info;
    this.dims = dims;
    this.#batchSize = batchSize;
    this.model = dtypeOf(info) === 'q8' ? `${info.id}@q8` : info.id;
  }

  /** Loads the model now (a resident engine starts warm). */
  async load(): Promise<void> {
    await this.#extractor();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extract = await this.#extractor();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const batch = texts
        .slice(start, start + this.#batchSize)
        .map((text) => clip(text, ONNX_MAX_INPUT_CHARS));
      let tensor: { dims: number[]; data: ArrayLike<number> };
      try {
        // Normalised here rather than by the pipeline: a text with no features must come back as a zero
        // vector (cosine's "similar to nothing"), not NaN.
        tensor = await extract(batch, { pooling: 'mean', normalize: false });
      } catch (error) {
        throw new MemoryError('EMBEDDING_FAILED', `The model ${this.model} failed on a batch.`, {
          cause: error,
        });
      }
      const [rows, width] = tensor.dims;
      if (rows !== batch.length || width !== this.dims) {
        throw new MemoryError(
          'EMBEDDING_FAILED',
          `The model ${this.model} returned [${tensor.dims.join(', ')}] for ${batch.length} texts; ` +
            `expected [${batch.length}, ${this.dims}]. Its config.json hidden_size does not match its weights.`,
        );
      }
      for (let row = 0; row < rows; row++) {
        const values = Array.prototype.slice.call(
          tensor.data,
          row * width,
          (row + 1) * width,
        ) as number[];
        if (!values.every(Number.isFinite)) {
          throw new MemoryError(
            'EMBEDDING_FAILED',
            `The model ${this.model} returned a non-finite vector.`,
          );
        }
        out.push(l2Normalize(values));
      }
    }
    return out;
  }

  #extractor(): Promise<Extractor> {
    const key = `${this.#info.dir}\0${dtypeOf(this.#info)}`;
    let pending = extractors.get(key);
    if (pending === undefined) {
      pending = withLocalModel<Extractor>(this.#info, async (transformers, name) => {
        const pipe = await transformers.pipeline('feature-extraction', name, {
          local_files_only: true,
          dtype: dtypeOf(this.#info),
          device: 'cpu',
        });
        return pipe;
      });
      // A failed load is forgotten so the next call retries (the directory may have been fixed).
      pending.catch(() => extractors.delete(key));
      extractors.set(key, pending);
    }
    return pending;
  }
}

/** How many models this process has loaded (tests check that embedders share one). */
export function loadedOnnxModels(): number {
  return extractors.size;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text.length === 0 ? ' ' : text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return text.slice(0, cut);
}
