/**
 * The systems compared in one run ("arms"). Each answers a question with its top `DEPTH` results as
 * lists of turn ids. Every arm except the floor goes through mnemo's public functions: the store's
 * search legs (`searchLexical`, `searchVector`), the production `retrieve()`, and (ablation only)
 * core's `fuseRankings`; nothing of the production pipeline is re-implemented here. No arm records access, so a question never changes
 * what the next one sees.
 */
import { RECALL_RRF_K, type RecallTuning } from '../../src/core/ranking/recall-fusion.js';
import { fuseRankings } from '../../src/core/ranking/rrf.js';
import type { Embedder } from '../../src/ports/embedder.js';
import type { Reranker } from '../../src/ports/reranker.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import type { Bm25Index } from './bm25.js';
import type { ConversationStore } from './conversation-store.js';
import { DEPTH } from './metrics.js';

/** What an arm sees of one conversation. */
export interface ArmContext {
  /**
   * The conversation's store holding vectors of `model` (a store keeps one vector per memory, so each
   * embedding model gets its own store); without a model, the first store (lexical arms ignore vectors).
   */
  storeFor: (model?: string) => ConversationStore;
  bm25: Bm25Index;
  /** Turn id of each BM25 document (corpus order). */
  turnIds: readonly string[];
  /** The question's embedding per model id (computed beforehand, so search timing excludes it). */
  queryVectors: ReadonlyMap<string, Float32Array>;
}

export interface Arm {
  name: string;
  /** One line for the report: what this arm is. */
  description: string;
  /** Embedding model whose query vector this arm needs, if any (its latency is reported beside it). */
  model?: string;
  search(question: string, context: ArmContext): Promise<string[][]>;
}

/** The floor: the independent BM25 over the same memory texts. */
export const bm25Arm: Arm = {
  name: 'bm25',
  description: 'plain BM25 (k1 1.2, b 0.75), independent of mnemo: the floor',
  search: (question, { bm25, turnIds }) =>
    Promise.resolve(bm25.search(question, DEPTH).map((hit) => [turnIds[hit.doc]!])),
};

/** The store's lexical leg alone: BM25F over body and context (or the backend's own bm25). */
export function lexicalArm(scoring: 'bm25f' | 'native'): Arm {
  return {
    name: scoring === 'bm25f' ? 'lexical' : 'lexical:fts5-weights',
    description:
      scoring === 'bm25f'
        ? 'store.searchLexical: the lexical leg alone (BM25F k1 1.2 b 0.2 over the index candidates)'
        : 'FTS5 bm25() with the same column weights (k1 1.2, b 0.75 fixed): the alternative to BM25F',
    search: async (question, { storeFor }) => {
      const conversation = storeFor();
      const hits = await conversation.store.searchLexical(question, {
        scope: conversation.scope,
        limit: DEPTH,
        scoring,
      });
      return hits.map((hit) => conversation.turnsOf.get(hit.id) ?? []);
    },
  };
}

/**
 * The production pipeline, `retrieve()`, with the given embedder (none: lexical and identifier legs
 * only, as a hook runs it) and optional reranker. Access is never recorded.
 */
export function retrieveArm(options: {
  name: string;
  description: string;
  embedder?: Embedder;
  reranker?: Reranker;
  /** Use the store's word embedder (the words leg). */
  words?: boolean;
  tuning?: RecallTuning;
  /** The store to search when there is no sentence embedder (by its model). */
  storeModel?: string;
}): Arm {
  const { embedder, reranker, tuning } = options;
  return {
    name: options.name,
    description: options.description,
    ...(embedder === undefined ? {} : { model: embedder.model }),
    search: async (question, { storeFor }) => {
      const conversation = storeFor(embedder?.model ?? options.storeModel);
      const wordEmbedder = options.words === true ? conversation.wordEmbedder : undefined;
      const hits = await retrieve(
        {
          store: conversation.store,
          clock: conversation.clock,
          embedder,
          reranker,
          wordEmbedder,
          tuning,
        },
        { query: question, scope: conversation.scope, limit: DEPTH, recordAccess: false },
      );
      return hits.map((hit) => conversation.turnsOf.get(hit.memory.id) ?? []);
    },
  };
}

/** The store's vector leg alone for one embedding model. */
export function vectorArm(model: string, label: string): Arm {
  return {
    name: `vector:${label}`,
    description: `store.searchVector, ${model}`,
    model,
    search: async (_question, { storeFor, queryVectors }) => {
      const conversation = storeFor(model);
      const values = queryVectors.get(model)!;
      const hits = await conversation.store.searchVector(
        { model, values },
        { scope: conversation.scope, limit: DEPTH },
      );
      return hits.map((hit) => conversation.turnsOf.get(hit.id) ?? []);
    },
  };
}

export interface FusionOptions {
  /** Candidates taken from each leg before fusion. */
  depth: number;
  lexicalWeight: number;
  vectorWeight: number;
}

export const DEFAULT_FUSION: FusionOptions = { depth: 30, lexicalWeight: 1, vectorWeight: 1 };

/**
 * Ablation (`--legs-rrf`): the lexical and vector legs fused with core's weighted RRF and nothing
 * else (no identifier leg, no recency/heat/trust factors), with weights and depth from the command
 * line. It separates what fusion itself gives from what the pipeline's other parts add or cost, and
 * is where leg weights were explored (on conversations 0-4 only).
 */
export function legsRrfArm(model: string, label: string, options: FusionOptions): Arm {
  return {
    name: `legs-rrf:${label}`,
    description:
      `store legs lexical+vector(${model}) depth ${options.depth}, core fuseRankings k ${RECALL_RRF_K} ` +
      `weights ${options.lexicalWeight}/${options.vectorWeight} (ablation)`,
    model,
    search: async (question, { storeFor, queryVectors }) => {
      const conversation = storeFor(model);
      const filter = { scope: conversation.scope, limit: options.depth };
      const [lexical, vector] = await Promise.all([
        conversation.store.searchLexical(question, filter),
        conversation.store.searchVector({ model, values: queryVectors.get(model)! }, filter),
      ]);
      const fused = fuseRankings(
        [
          { signal: 'lexical', ids: lexical.map((h) => h.id), weight: options.lexicalWeight },
          { signal: 'vector', ids: vector.map((h) => h.id), weight: options.vectorWeight },
        ],
        { k: RECALL_RRF_K },
      );
      return fused.slice(0, DEPTH).map((hit) => conversation.turnsOf.get(hit.id) ?? []);
    },
  };
}

/** The words leg alone: the store's SIF embedder and its vector search. */
export const wordsArm: Arm = {
  name: 'words',
  description: 'store.searchVector over the static word vectors (GloVe-100 SIF, context vector)',
  search: async (question, { storeFor }) => {
    const conversation = storeFor();
    const embedder = conversation.wordEmbedder;
    if (embedder === undefined) return [];
    const [values] = await embedder.embed([question]);
    if (values === undefined || !values.some((v) => v !== 0)) return [];
    const hits = await conversation.store.searchVector(
      { model: embedder.model, values },
      { scope: conversation.scope, limit: DEPTH },
    );
    return hits.map((hit) => conversation.turnsOf.get(hit.id) ?? []);
  },
};
