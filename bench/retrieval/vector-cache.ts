/**
 * An on-disk cache of embeddings keyed by model id and text hash, so a rerun of the benchmark does not
 * pay for USE or ONNX again (USE lite embeds ~50–120 turns a second on two cores). One append-only
 * file per model: records of a 32-byte sha256 of the text followed by `dims` float32 values. The cache
 * lives under a git-ignored directory and can be deleted at any time.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Embedder } from '../../src/ports/embedder.js';

const HASH_BYTES = 32;

export interface EmbedStats {
  texts: number;
  /** Texts that had to be embedded (cache misses). */
  embedded: number;
  /** Wall time spent in the embedder, ms (0 when everything came from the cache). */
  embedMs: number;
}

/**
 * Embeds through a cache file; vectors come back in the order of `texts`. It is itself an `Embedder` (same
 * model id), so `retrieve()` can be handed one whose query vectors were computed beforehand: recall
 * timings then exclude the query embedding, which is measured on its own.
 */
export class CachedEmbedder implements Embedder {
  readonly #embedder: Embedder;
  readonly #file: string;
  readonly #vectors = new Map<string, Float32Array>();
  readonly stats: EmbedStats = { texts: 0, embedded: 0, embedMs: 0 };

  constructor(embedder: Embedder, cacheDir: string) {
    this.#embedder = embedder;
    mkdirSync(cacheDir, { recursive: true });
    this.#file = join(
      cacheDir,
      `${embedder.model.replaceAll(/[^\w.@-]+/g, '_')}-${embedder.dims}.vec`,
    );
    if (existsSync(this.#file)) this.#load();
  }

  get model(): string {
    return this.#embedder.model;
  }

  get dims(): number {
    return this.#embedder.dims;
  }

  /** Embeds `texts`, computing only the ones not cached, in batches of `batch` (progress per batch). */
  async embed(
    texts: readonly string[],
    onProgress?: (done: number, total: number) => void,
    batch = 256,
  ): Promise<Float32Array[]> {
    this.stats.texts += texts.length;
    const keys = texts.map(textKey);
    const missing = [...new Set(keys.filter((key) => !this.#vectors.has(key)))];
    const textOf = new Map(keys.map((key, i) => [key, texts[i]!]));
    for (let start = 0; start < missing.length; start += batch) {
      const slice = missing.slice(start, start + batch);
      const began = performance.now();
      const vectors = await this.#embedder.embed(slice.map((key) => textOf.get(key)!));
      this.stats.embedMs += performance.now() - began;
      this.stats.embedded += slice.length;
      const chunks: Buffer[] = [];
      slice.forEach((key, i) => {
        const vector = vectors[i]!;
        this.#vectors.set(key, vector);
        chunks.push(
          Buffer.from(key, 'hex'),
          Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        );
      });
      appendFileSync(this.#file, Buffer.concat(chunks));
      onProgress?.(Math.min(start + batch, missing.length), missing.length);
    }
    return keys.map((key) => this.#vectors.get(key)!);
  }

  #load(): void {
    const data = readFileSync(this.#file);
    const record = HASH_BYTES + this.dims * 4;
    const whole = data.length - (data.length % record);
    // A torn final record (interrupted run) is cut off so later appends stay aligned.
    if (whole !== data.length) writeFileSync(this.#file, data.subarray(0, whole));
    for (let offset = 0; offset < whole; offset += record) {
      const key = data.subarray(offset, offset + HASH_BYTES).toString('hex');
      const values = new Float32Array(this.dims);
      Buffer.from(values.buffer).set(data.subarray(offset + HASH_BYTES, offset + record));
      this.#vectors.set(key, values);
    }
  }
}

function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
