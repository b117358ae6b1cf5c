/**
 * Optional cross-encoder rerank (ms-marco MiniLM class) through transformers.js: each (query, document)
 * pair is tokenised together and the model's single logit is its relevance. Used only when the reranker's
 * model directory exists; recall works the same without it.
 */
import { MemoryError } from '../core/errors.js';
import type { Reranker } from '../ports/reranker.js';
import { inspectModelDir, type ModelDirInfo } from './model-cache.js';
import { dtypeOf, withLocalModel } from './transformers-runtime.js';

/** Pairs per model call. */
export const RERANK_BATCH_SIZE = 16;
/** Characters of each document given to the cross-encoder (it truncates at 512 tokens anyway). */
export const RERANK_MAX_DOC_CHARS = 2_048;

interface Classifier {
  tokenizer: (
    text: string[],
    options: { text_pair: string[]; padding: boolean; truncation: boolean },
  ) => Record<string, unknown>;
  model: (
    inputs: Record<string, unknown>,
  ) => Promise<{ logits: { dims: number[]; data: ArrayLike<number> } }>;
}

const classifiers = new Map<string, Promise<Classifier>>();

/**
 * A reranker for the directory, or undefined when the directory does not exist or is incomplete (the
 * rerank step is then off). Throws nothing: an absent reranker is the normal case.
 */
export function openOnnxReranker(id: string, dir: string): OnnxReranker | undefined {
  const info = inspectModelDir(id, dir);
  return info.missing.length === 0 ? new OnnxReranker(info) : undefined;
}

export class OnnxReranker implements Reranker {
  readonly model: string;
  readonly #info: ModelDirInfo;

  constructor(info: ModelDirInfo) {
    this.#info = info;
    this.model = dtypeOf(info) === 'q8' ? `${info.id}@q8` : info.id;
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const { tokenizer, model } = await this.#classifier();
    const scores: number[] = [];
    for (let start = 0; start < documents.length; start += RERANK_BATCH_SIZE) {
      const batch = documents
        .slice(start, start + RERANK_BATCH_SIZE)
        .map((d) => d.slice(0, RERANK_MAX_DOC_CHARS));
      try {
        const inputs = tokenizer(
          batch.map(() => query),
          { text_pair: batch, padding: true, truncation: true },
        );
        const { logits } = await model(inputs);
        const width = logits.dims.at(-1) ?? 1;
        for (let i = 0; i < batch.length; i++) scores.push(Number(logits.data[i * width]));
      } catch (error) {
        throw new MemoryError('EMBEDDING_FAILED', `The reranker ${this.model} failed on a batch.`, {
          cause: error,
        });
      }
    }
    return scores;
  }

  #classifier(): Promise<Classifier> {
    const key = `${this.#info.dir}\0${dtypeOf(this.#info)}`;
    let pending = classifiers.get(key);
    if (pending === undefined) {
      pending = withLocalModel<Classifier>(this.#info, async (transformers, name) => {
        const options = {
          local_files_only: true,
          dtype: dtypeOf(this.#info),
          device: 'cpu',
        } as const;
        const [tokenizer, model] = await Promise.all([
          transformers.AutoTokenizer.from_pretrained(name, { local_files_only: true }),
          transformers.AutoModelForSequenceClassification.from_pretrained(name, options),
        ]);
        return { tokenizer, model };
      });
      pending.catch(() => classifiers.delete(key));
      classifiers.set(key, pending);
    }
    return pending;
  }
}
