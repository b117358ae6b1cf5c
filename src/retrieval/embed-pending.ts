/**
 * Fills in missing vectors: memories stored without one (every capture, since hooks never embed) get
 * embedded in batches by whichever process owns an embedder (`mnemo recall`, `mnemo reembed`, later the
 * resident engine). Progress is the store itself: a memory with a vector of the model is no longer
 * listed, so an interrupted run resumes where it stopped and embeds nothing twice.
 */
import type { Memory } from '../core/memory.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import { CONTEXT_BEFORE, contextLinesOf } from '../core/text/capture-context.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, Scope } from '../store/store.js';

/**
 * Weight of each line of the context in a memory's vector: `normalise(v(content) + w · Σ v(line))`. The
 * context is the neighbours' texts one per line, by position (core/text/capture-context.ts), so a line is
 * a neighbour. Each neighbour embedded on its own keeps what it says; one vector of all of them
 * blurred it: on LoCoMo 0–4 (`npm run bench:sweep`, USE lite weight 0.5) one vector of the whole context
 * at 0.5 or 1 scored R@10 / MRR@10 0.857 / 0.563, a vector per line at 0.25 / 0.5 / 1 / 1.5 / 2.5
 * 0.862 / 0.568, 0.865 / 0.576, **0.868 / 0.580**, 0.866 / 0.579, 0.866 / 0.577 (docs/benchmarks.md).
 */
export const CONTEXT_LINE_WEIGHT = 1;

/**
 * Context positions that enter a memory's vectors: the two neighbours before and the first one after
 * (core/text/capture-context.ts `contextLinesOf`), never the second one after. Lexical scoring counts that
 * one at a low weight (core/ranking/bm25f.ts), but in a vector it blurs the memory: on LoCoMo 0–4
 * (`npm run bench:sweep -- --providers use,words`) vectors of these three positions scored R@10 / MRR@10
 * 0.864 / 0.599, with the fourth at 0.3 or 1 0.861 / 0.595 and 0.863 / 0.585 (docs/benchmarks.md).
 */
export const MAX_CONTEXT_LINES = CONTEXT_BEFORE + 1;

/** The context lines that get a vector of their own: positions p2, p1, n1, in order, empty ones dropped. */
export function contextLines(context: string): string[] {
  return contextLinesOf(context)
    .slice(0, MAX_CONTEXT_LINES)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

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
 * The vectors of memories: each one's content plus each line of its context (the text around it when it
 * was captured) at the embedder's `contextLineWeight` (default `CONTEXT_LINE_WEIGHT`), renormalised. A
 * memory without context gets its content's vector as it is.
 */
export async function memoryVectors(
  embedder: Embedder,
  memories: readonly Pick<Memory, 'content' | 'context'>[],
): Promise<Float32Array[]> {
  const own = await embedder.embed(memories.map((m) => m.content));
  const lines = memories.map((m) => contextLines(m.context));
  const flat = lines.flat();
  if (flat.length === 0) return own;
  const around = await embedder.embed(flat);
  const weight = embedder.contextLineWeight ?? CONTEXT_LINE_WEIGHT;
  let next = 0;
  for (const [i, ofMemory] of lines.entries()) {
    if (ofMemory.length === 0) continue;
    const mixed = Float64Array.from(own[i]!);
    for (let k = 0; k < ofMemory.length; k++) {
      const line = around[next++]!;
      for (let d = 0; d < mixed.length; d++) mixed[d]! += weight * (line[d] ?? 0);
    }
    if (mixed.some((v) => v !== 0)) own[i] = l2Normalize(mixed);
  }
  return own;
}
