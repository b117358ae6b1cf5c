/**
 * Fills in missing vectors: memories stored without one (every capture, since hooks never embed) get
 * embedded in batches by whichever process owns an embedder (`mnemo recall`, `mnemo reembed`, later the
 * resident engine). Progress is the store itself: a memory with a vector of the model is no longer
 * listed, so an interrupted run resumes where it stopped and embeds nothing twice.
 */
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, Scope } from '../store/store.js';

export interface EmbedPendingOptions {
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
    const vectors = await embedder.embed(batch.map((m) => m.content));
    for (const [i, memory] of batch.entries()) {
      const values = vectors[i]!;
      if (!values.some((v) => v !== 0)) {
        skippedIds.add(memory.id);
        skipped += 1;
        continue;
      }
      await store.setVector(memory.id, { model: embedder.model, values });
      embedded += 1;
    }
    options.onProgress?.(embedded);
  }
  return { embedded, skipped };
}
