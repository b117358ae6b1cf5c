/**
 * The static word-vector leg: smooth inverse frequency sentence vectors (Arora, Liang & Ma, ICLR 2017)
 * over GloVe 100-d (embed/word-table.ts). A text's vector is the average of its words' vectors, each
 * weighted a / (a + p(w)) with p(w) the word's frequency in this store's own text (the lexical index
 * counts it: `store.termCounts`), minus its projection on the store's common component (the first
 * principal component of a sample of its memories), L2-normalised. On LoCoMo it beat USE lite as a leg
 * alone and costs microseconds per text (docs/benchmarks.md); frequencies from a generic corpus instead of
 * the store were much worse.
 *
 * The common component is state of the store (`model_state`), so the model id names it, together with
 * the rule its memory vectors are built by and the context rule (`WORD_VECTOR_RULE_ID`): `glove-sif-100-<hash>`. It is estimated
 * once the store holds `COMPONENT_MIN_DOCS` memories and again each time the store has grown
 * `COMPONENT_GROWTH`-fold; a new estimate, or a new rule, is a new model, whose vectors replace the old
 * model's (cheap: thousands of texts a second).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';

import { isMemoryError } from '../core/errors.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import { termOf, words } from '../core/text/analyze.js';
import { CONTEXT_RULE_VERSION } from '../core/text/capture-context.js';
import type { WordTable } from '../embed/word-table.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore } from '../store/store.js';

export const WORD_MODEL_FAMILY = 'glove-sif-100';
/** SIF's a: the frequency at which a word's weight halves (Arora et al.'s recommended 1e-3). */
export const SIF_A = 1e-3;
export const COMPONENT_MIN_DOCS = 50;
export const COMPONENT_GROWTH = 4;
/** Memories the common component is estimated from (newest first). */
export const COMPONENT_SAMPLE = 2000;

/**
 * Weight of each context line in a memory's words vector (retrieval/embed-pending.ts), below the sentence
 * model's 1: averaged word vectors of a few neighbours drown a turn's own words sooner than a sentence
 * model's vectors do. On LoCoMo 0–4 (`npm run bench:retrieval -- --providers words`) the leg alone went
 * from R@10 / MRR@10 0.518 / 0.250 at 1 to 0.593 / 0.320 at 0.5 (0.617 / 0.344 at 0.35); fused with USE
 * lite (`npm run bench:sweep`) 0.5 kept R@10 and added MRR (docs/benchmarks.md).
 */
export const WORD_CONTEXT_LINE_WEIGHT = 0.5;

/**
 * The version of how this leg builds a memory's vector, part of every model id: vectors stored under an
 * earlier rule belong to another model, so `openWordEmbedder` replaces them (1: context lines at 1;
 * 2: at `WORD_CONTEXT_LINE_WEIGHT`; 3: the context positions of `MAX_CONTEXT_LINES`). The id also names
 * the context rule (`CONTEXT_RULE_VERSION`), since a vector takes its context's text: a new context rule
 * is a new model too.
 */
export const WORD_VECTOR_RULE = 3;

/** `WORD_VECTOR_RULE` with the context rule its vectors were built from. */
export const WORD_VECTOR_RULE_ID = `r${WORD_VECTOR_RULE}-${CONTEXT_RULE_VERSION}`;

interface WordModelState extends Record<string, unknown> {
  model: string;
  docs: number;
  component: number[] | null;
}

/** A SIF embedder bound to one store's frequencies and common component. */
export class SifEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;
  readonly contextLineWeight = WORD_CONTEXT_LINE_WEIGHT;
  readonly #table: WordTable;
  readonly #store: MemoryStore;
  readonly #component: Float64Array | null;

  constructor(table: WordTable, store: MemoryStore, state: WordModelState) {
    this.#table = table;
    this.#store = store;
    this.model = state.model;
    this.dims = table.dims;
    this.#component = state.component === null ? null : Float64Array.from(state.component);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const raw = await sifVectors(this.#table, this.#store, texts);
    return raw.map((v) => finish(v, this.#component));
  }
}

/** Weighted average word vectors, before the common component is removed (zero when no known word). */
async function sifVectors(
  table: WordTable,
  store: MemoryStore,
  texts: readonly string[],
): Promise<Float64Array[]> {
  const tokenised = texts.map((text) => words(text).filter((w) => table.has(w)));
  const terms = [...new Set(tokenised.flat().map(termOf))];
  const { total, counts } = await store.termCounts(terms);
  return tokenised.map((tokens) => {
    const v = new Float64Array(table.dims);
    for (const word of tokens) {
      const p = total > 0 ? (counts.get(termOf(word)) ?? 0) / total : 0;
      table.addTo(v, word, SIF_A / (SIF_A + p));
    }
    if (tokens.length > 0) for (let d = 0; d < v.length; d++) v[d]! /= tokens.length;
    return v;
  });
}

function finish(v: Float64Array, component: Float64Array | null): Float32Array {
  const out = Float64Array.from(v);
  if (component !== null) {
    let dot = 0;
    for (let d = 0; d < out.length; d++) dot += out[d]! * component[d]!;
    for (let d = 0; d < out.length; d++) out[d]! -= dot * component[d]!;
  }
  return l2Normalize(out);
}

/**
 * The first principal component (uncentred, as in SIF) of the vectors, by power iteration from their
 * mean: deterministic, and 30 steps are plenty for 100 dimensions. Null when the vectors carry nothing.
 */
export function firstComponent(vectors: readonly Float64Array[]): Float64Array | null {
  const dims = vectors[0]?.length ?? 0;
  if (dims === 0) return null;
  let u = new Float64Array(dims);
  for (const v of vectors) for (let d = 0; d < dims; d++) u[d]! += v[d]!;
  for (let step = 0; step < 30; step++) {
    const next = new Float64Array(dims);
    for (const v of vectors) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += v[d]! * u[d]!;
      for (let d = 0; d < dims; d++) next[d]! += dot * v[d]!;
    }
    const norm = Math.hypot(...next);
    if (!(norm > 0)) return null;
    u = next.map((x) => x / norm);
  }
  return u;
}

/**
 * The model id of vectors built by `rule` (default today's, `WORD_VECTOR_RULE_ID`) with `component`
 * (rule 1 ids had no rule in them).
 */
export function wordModelId(
  component: ArrayLike<number> | null,
  rule: string = WORD_VECTOR_RULE_ID,
): string {
  if (component === null) return `${WORD_MODEL_FAMILY}-raw-${rule}`;
  const digest = createHash('sha256')
    .update(`rule ${rule};`)
    .update(Array.from(component, (x) => x.toFixed(6)).join(','))
    .digest('hex');
  return `${WORD_MODEL_FAMILY}-${digest.slice(0, 8)}`;
}

/**
 * The word embedder of `store`, estimating (or re-estimating) its common component when due. A new
 * estimate drops the previous model's vectors, which `embedPending` then recomputes. Pass
 * `{ refresh: false }` from a process that must not write (a one-shot recall): it embeds with the saved
 * state as it is.
 */
export async function openWordEmbedder(
  store: MemoryStore,
  table: WordTable,
  options: { refresh?: boolean } = {},
): Promise<SifEmbedder> {
  const saved = (await store.getModelState(WORD_MODEL_FAMILY)) as WordModelState | undefined;
  const docs = await store.countMemories();
  const due =
    saved === undefined ||
    saved.model !== wordModelId(saved.component) ||
    (docs >= COMPONENT_MIN_DOCS &&
      (saved.component === null || docs >= saved.docs * COMPONENT_GROWTH));
  if (!due || options.refresh === false) {
    return new SifEmbedder(
      table,
      store,
      saved ?? { model: wordModelId(null), docs, component: null },
    );
  }
  let component: Float64Array | null = null;
  if (docs >= COMPONENT_MIN_DOCS) {
    const sample = await store.listMemories({ limit: COMPONENT_SAMPLE });
    component = firstComponent(
      await sifVectors(
        table,
        store,
        sample.map((m) => m.content),
      ),
    );
  }
  const state: WordModelState = {
    model: wordModelId(component),
    docs,
    component: component === null ? null : Array.from(component),
  };
  await store.setModelState(WORD_MODEL_FAMILY, state);
  if (saved !== undefined && saved.model !== state.model)
    await store.deleteVectorModel(saved.model);
  return new SifEmbedder(table, store, state);
}

/** The words leg of a process, or why it is off. */
export interface WordLeg {
  embedder?: SifEmbedder;
  skipped?: string;
}

/**
 * Opens the words leg for `store` from the table in `home` (embed/word-table.ts). `convert`: build the
 * table from the optional package when it is missing (the resident engine and `mnemo model words` do;
 * a one-shot recall never pays the ~10 s parse and runs without the leg instead). Never throws for a
 * missing table or package: the leg is off and `skipped` says why and what to run.
 */
export async function openWordLeg(
  store: MemoryStore,
  home: string,
  options: { convert: boolean; refresh?: boolean },
): Promise<WordLeg> {
  const { convertWordVectors, findWordVectorSource, loadWordTable, wordTablePath } = await import(
    '../embed/word-table.js'
  );
  const path = wordTablePath(home);
  let table: WordTable;
  try {
    table =
      existsSync(path) || !options.convert
        ? loadWordTable(path)
        : convertWordVectors(path, findWordVectorSource());
  } catch (error) {
    if (!isMemoryError(error, 'EMBEDDING_FAILED')) throw error;
    return { skipped: error.message };
  }
  return {
    embedder: await openWordEmbedder(store, table, { refresh: options.refresh ?? true }),
  };
}
