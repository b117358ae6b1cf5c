/**
 * Fills in missing vectors: memories stored without one (every capture, since hooks never embed) get
 * embedded in batches by whichever process owns an embedder (`mnemo recall`, `mnemo reembed`, later the
 * resident engine). Progress is the store itself: a memory with a vector of the model is no longer
 * listed, so an interrupted run resumes where it stopped and embeds nothing twice.
 */
import type { Memory } from '../core/memory.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, Scope } from '../store/store.js';

/**
 * Weight of the context's vector in a memory's vector: `normalise(v(content) + w · v(context))`. On
 * LoCoMo such a context vector lifted either vector leg by about 0.04 R@10 (docs/benchmarks.md); 0.5 is
 * the neighbours' weight measured there.
 */
export const CONTEXT_VECTOR_WEIGHT = 0.5;

export interface EmbedPendingOptions {
  /**
   * `sentence` (default): the memory's sentence vector (`setVector`, named by `embeddingModel`);
   * `extra`: a derived vector beside it (`setExtraVector`, the word-vector leg).
   */
  slot?: 'sentence' | 'extra';
  /** Most memories to embed in this call. */
  max: number;
  /** Memories per embedder call (and per listing). */
  batchSize: number;
  /** Only memories visible in this scope; omitted: every project. */
  scope?: Scope;
  /** Called after each stored batch with the running total. */
  onProgress?: (done: number) => void;
  /** Checked between batches; when it returns true the run stops cleanly after the current batch. */
  shouldStop?: () => boolean;
}

export interface EmbedPendingReport {
  embedded: number;
  /** Memories whose text yields no vector (no features): left unembedded, counted, not retried here. */
  skipped: number;
}

/** Embeds up to `max` memories that lack a vector of `embedder.model`. */
export async function embedPending(
  store: MemoryStore,
  embedder: Embedder,
  options: EmbedPendingOptions,
): Promise<EmbedPendingReport> {
  let embedded = 0;
  let skipped = 0;
  const skippedIds = new Set<string>();
  while (embedded + skipped < options.max && options.shouldStop?.() !== true) {
    const want = Math.min(options.batchSize, options.max - embedded - skipped);
    // Skipped rows stay listed, so ask for enough to get past them.
    const listed = await store.listUnembedded(
      embedder.model,
      want + skippedIds.size,
      options.scope,
    );
    const batch = listed.filter((m) => !skippedIds.has(m.id)).slice(0, want);
    if (batch.length === 0) break;
    const vectors = await memoryVectors(embedder, batch);
    for (const [i, memory] of batch.entries()) {
      const values = vectors[i]!;
      if (!values.some((v) => v !== 0)) {
        skippedIds.add(memory.id);
        skipped += 1;
        continue;
      }
      const vector = { model: embedder.model, values };
      if (options.slot === 'extra') await store.setExtraVector(memory.id, vector);
      else await store.setVector(memory.id, vector);
      embedded += 1;
    }
    options.onProgress?.(embedded);
  }
  return { embedded, skipped };
}

/**
 * The vectors of memories: each one's content, plus its context (the text around it when it was captured)
 * at `CONTEXT_VECTOR_WEIGHT`, renormalised. A memory without context gets its content's vector as it is.
 */
export async function memoryVectors(
  embedder: Embedder,
  memories: readonly Pick<Memory, 'content' | 'context'>[],
): Promise<Float32Array[]> {
  const own = await embedder.embed(memories.map((m) => m.content));
  const withContext = memories.flatMap((m, i) => (m.context.trim() === '' ? [] : [i]));
  if (withContext.length === 0) return own;
  const around = await embedder.embed(withContext.map((i) => memories[i]!.context));
  for (const [j, i] of withContext.entries()) {
    const mixed = new Float64Array(own[i]!.length);
    for (let d = 0; d < mixed.length; d++) {
      mixed[d] = own[i]![d]! + CONTEXT_VECTOR_WEIGHT * (around[j]![d] ?? 0);
    }
    if (mixed.some((v) => v !== 0)) own[i] = l2Normalize(mixed);
  }
  return own;
}
