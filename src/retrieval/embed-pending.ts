/**
 * Fills in missing vectors: memories stored without one (every capture, since hooks never embed) get
 * embedded in batches by whichever process owns an embedder (`mnemo recall`, `mnemo reembed`, the
 * resident engine). Progress is the store itself: a memory with a vector of the model is no longer
 * listed, so an interrupted run resumes where it stopped and embeds nothing twice.
 *
 * A sentence vector is built by a rule (`sentenceVectorRule`), recorded per model in the store
 * (store/vector-rules.ts). Before it embeds, a process adopts today's rule (`adoptVectorRule`): vectors
 * of an earlier rule are dropped, so they are listed as missing and rebuilt here, and recall never ranks
 * vectors of two rules against each other.
 */
import type { Memory } from '../core/memory.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import {
  CONTEXT_BEFORE,
  CONTEXT_RULE_VERSION,
  contextLinesOf,
} from '../core/text/capture-context.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, Scope } from '../store/store.js';
import { readVectorRule, writeVectorRule } from '../store/vector-rules.js';

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

/**
 * The version of how `memoryVectors` builds a memory's sentence vector; bump it with any change there.
 * 1 (never recorded): the content's vector, later plus one vector of the whole context at 0.5;
 * 2: plus a vector per context line; 3: per context line by position (p2, p1, n1).
 */
export const MEMORY_VECTOR_RULE = 3;

/**
 * The rule `embedder`'s memory vectors are built by: the version, the context line weight, the line cap
 * and the context rule (`CONTEXT_RULE_VERSION`: a vector takes its context's text, so a new context rule
 * is a new vector rule too), so a change of any of them renews the vectors.
 */
export function sentenceVectorRule(embedder: Embedder): string {
  const weight = embedder.contextLineWeight ?? CONTEXT_LINE_WEIGHT;
  return `r${MEMORY_VECTOR_RULE}-w${weight}-l${MAX_CONTEXT_LINES}-${CONTEXT_RULE_VERSION}`;
}

export interface AdoptedRule {
  rule: string;
  /** Vectors of an earlier rule this call dropped. */
  dropped: number;
  /** The rule they were built by (null: unrecorded, from before rules were recorded). */
  droppedRule: string | null;
  /** Vectors of an earlier rule dropped, by this call or before, that are not all rebuilt yet. */
  unrebuilt: number;
  /**
   * False when the store holds no vector of the model and no record yet: nothing is written until the
   * first vector is (`recordVectorRule`), so opening an empty store writes nothing.
   */
  recorded: boolean;
}

/**
 * Makes today's rule the one every stored sentence vector of `embedder.model` is built by: when the
 * store records another rule (or none, and holds vectors of the model), those vectors are dropped first,
 * then the rule is recorded. Dropped, not kept aside: they are never ranked again, and the memories are
 * listed as missing, so whatever fills missing vectors rebuilds them. In that order, a crash between the
 * two steps leaves nothing of the old rule recorded as new. Cheap when the rule is already recorded
 * (one read).
 */
export async function adoptVectorRule(
  store: MemoryStore,
  embedder: Embedder,
): Promise<AdoptedRule> {
  const rule = sentenceVectorRule(embedder);
  const saved = await readVectorRule(store, embedder.model);
  if (saved?.rule === rule) {
    return { rule, dropped: 0, droppedRule: null, unrebuilt: saved.dropped, recorded: true };
  }
  const held = (await store.stats()).vectors[embedder.model] ?? 0;
  if (saved === undefined && held === 0) {
    return { rule, dropped: 0, droppedRule: null, unrebuilt: 0, recorded: false };
  }
  const dropped = held > 0 ? await store.deleteVectorModel(embedder.model) : 0;
  const droppedRule = saved?.rule ?? null;
  const unrebuilt = (saved?.dropped ?? 0) + dropped;
  await writeVectorRule(store, embedder.model, {
    rule,
    dropped: unrebuilt,
    droppedRule: dropped > 0 ? droppedRule : (saved?.droppedRule ?? null),
  });
  return { rule, dropped, droppedRule, unrebuilt, recorded: true };
}

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
  // Extra models (the words leg) name their rule in their model id (retrieval/word-vectors.ts).
  const sentence = options.slot !== 'extra';
  const adopted = sentence ? await adoptVectorRule(store, embedder) : undefined;
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
      if (adopted?.recorded === false) {
        await recordVectorRule(store, embedder.model, adopted.rule);
        adopted.recorded = true;
      }
      if (options.slot === 'extra') await store.setExtraVector(memory.id, vector);
      else await store.setVector(memory.id, vector);
      embedded += 1;
    }
    options.onProgress?.(embedded);
  }
  // The count of rebuilt vectors is cleared only once a whole-store run finds nothing left.
  if (adopted !== undefined && adopted.unrebuilt > 0 && options.scope === undefined) {
    const left = await store.listUnembedded(embedder.model, skippedIds.size + 1);
    if (left.every((m) => skippedIds.has(m.id))) await caughtUp(store, embedder.model);
  }
  return { embedded, skipped };
}

/** Records `rule` for a model whose first vector is about to be stored. */
async function recordVectorRule(store: MemoryStore, model: string, rule: string): Promise<void> {
  await writeVectorRule(store, model, { rule, dropped: 0, droppedRule: null });
}

/** Every memory has a vector of `model` again: the dropped vectors of an earlier rule are rebuilt. */
export async function caughtUp(store: MemoryStore, model: string): Promise<void> {
  const saved = await readVectorRule(store, model);
  if (saved !== undefined && saved.dropped > 0) {
    await writeVectorRule(store, model, { ...saved, dropped: 0, droppedRule: null });
  }
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
