/**
 * The fusion settings of recall: the RRF constant and the weight of each retrieval leg. Pure constants
 * and one lookup, kept in core so that every caller (CLI, MCP, hooks) and every backend fuses the same
 * way. Every number here was chosen on LoCoMo conversations 0–4 only (docs/benchmarks.md, "What moved the
 * numbers"); conversations 5–9 are held out and were used to check, never to choose.
 */
import { type Bm25fParams, RECALL_BM25F } from './bm25f.js';
import type { LegScale } from './score-fusion.js';

/**
 * RRF k for recall. The RRF paper's 60 makes neighbouring ranks nearly equal (1/61 vs 1/62), so a leg's
 * clear first place is worth little more than its tenth, and any weaker leg or factor reorders the top.
 * With 10 the top ranks of a leg count: on LoCoMo 0–4 (strict, one previous turn as context, USE vectors
 * at weight 0.25, `npm run bench:sweep`) R@10 / MRR@10 went from 0.794 / 0.454 at k = 60 to
 * 0.814 / 0.476 at k = 10; 5 scored the same within noise but weakens the trust factor (below).
 *
 * Trust stays decisive: an untrusted memory (factor 0.5) ranked first by some legs loses to a trusted one
 * ranked r-th by the same legs whenever (k + 1) / (k + r) > 0.5, i.e. down to rank r = k + 1 = 11.
 */
export const RECALL_RRF_K = 10;

/**
 * RRF weights of the legs that do not depend on a model. The lexical leg (bm25) is the reference.
 * The identifier leg counts fully when the query holds code terms (`NODE_ENV`, `sqlite-store.ts`), where
 * an exact substring is the strongest evidence there is; for plain words (so that "sqlite store" finds
 * `SqliteStore`) it counts a quarter. LoCoMo has no identifiers and barely tells these weights apart
 * (no embedder, k = 10: R@10 / MRR@10 0.811 / 0.472 without the leg, 0.809 / 0.474 at 0.25, 0.811 /
 * 0.475 at 0.5; with USE lite 0.810 / 0.475, 0.814 / 0.476, 0.811 / 0.476), so the quarter that
 * measured best with vectors was kept. `runLegs` skips the leg for plain words once the word index has
 * filled the depth (a latency trade, see there).
 */
export const LEG_WEIGHTS = {
  lexical: 1,
  identifierCode: 1,
  identifierPlain: 0.25,
  /** The static word-vector leg under RRF: a weak leg, like the offline sentence models. */
  words: 0.25,
  /** The concept leg (core/text/concepts.ts): the members of a kind the query names, as a lexical query. */
  concept: 1,
} as const;

/**
 * RRF weight of the vector leg by embedding model. A weak vector leg fused at full weight pulls its own
 * top hits over the lexical leg's and costs precision. On LoCoMo 0–4 (k = 10) the USE lite leg alone
 * reaches R@10 0.526 against the lexical leg's 0.812; fused at weight 1 it gives R@10 / MRR@10
 * 0.798 / 0.459, at 0.5 0.807 / 0.469, at 0.25 0.814 / 0.476 (no vector leg: 0.809 / 0.474). The hash
 * embedder is lexical similarity again: 0.765 / 0.417 at 1, 0.808 / 0.467 at 0.25. Models not measured
 * here (ONNX MiniLM / bge class, far above USE lite on public retrieval benchmarks) keep the RRF paper's
 * equal weight until they are measured.
 */
export const VECTOR_LEG_WEIGHTS = {
  /** `hash-v1-<dims>`: feature hashing of words and word pieces. */
  hash: 0.25,
  /** `use-lite-512`: Universal Sentence Encoder lite. */
  useLite: 0.25,
  /** Every other model. */
  other: 1,
} as const;

/** The RRF weight of the vector leg for vectors of `model` (see `VECTOR_LEG_WEIGHTS`). */
export function vectorLegWeight(model: string): number {
  if (/^hash-v\d+-\d+$/u.test(model)) return VECTOR_LEG_WEIGHTS.hash;
  if (model === 'use-lite-512') return VECTOR_LEG_WEIGHTS.useLite;
  return VECTOR_LEG_WEIGHTS.other;
}

/**
 * How recall fuses its legs and priors. `fusion: 'score'` (the default) normalises each leg's scores
 * over the candidate pool (core/ranking/score-fusion.ts); `'rrf'` is the weighted reciprocal-rank fusion
 * above, kept for comparison (the benchmark's `fused-rrf` arms). Every number was chosen on LoCoMo
 * conversations 0–4 only (`npm run bench:sweep`), then checked once on 5–9 (docs/benchmarks.md).
 */
export interface RecallTuning {
  fusion: 'score' | 'rrf';
  normalisation: 'zscore' | 'minmax';
  /** Score-fusion weights per leg; the vector leg's by model (`scoreVectorWeight`). */
  weights: {
    lexical: number;
    /** Overrides the sentence model's vector weight (`scoreVectorWeight`); sweeps only. */
    vector?: number;
    identifierCode: number;
    identifierPlain: number;
    /** The static word-vector leg (retrieval/word-vectors). */
    words: number;
    /**
     * The concept leg (core/text/concepts.ts), which runs only when the query names a kind of tool
     * ("package manager") and none of its members. Above the lexical leg's weight because it is the only
     * word evidence such a question has: at 1 a single incidental lexical match ("the pg package")
     * still outranked the memory naming the tool on the README's 33-memory store.
     */
    concept: number;
    rerank: number;
  };
  /** Weight of the session prior (core/ranking/priors.ts), in normalised-score units. */
  session: number;
  /** Weight of the entity prior. */
  entity: number;
  /** Lexical scoring (core/ranking/bm25f.ts). */
  bm25f: Bm25fParams;
  /**
   * Lexical candidates asked for (they also feed the session prior); at least the recall's depth. 50,
   * the whole BM25F pool, since the vector legs hold a vector per context line: on LoCoMo 0–4 (fused,
   * USE lite + words) 30 / 40 / 45 / 50 / 60 / 100 scored R@10 / MRR@10 0.864 / 0.599, 0.871 / 0.600,
   * 0.872 / 0.601, **0.874 / 0.601**, 0.874 / 0.602, 0.871 / 0.602; the hook path 0.853 / 0.583 at 30,
   * 0.856 / 0.583 at 50. Deeper vector legs instead (30 / 45 / 60 / 100) scored 0.864, 0.864, 0.863,
   * 0.858: the gain is the dense legs' exact scores lifting lexical candidates 31–50.
   */
  lexicalDepth: number;
  /**
   * Candidates the store's index hands to BM25F for those (store.ts `LexicalSearchOptions.pool`); at
   * least the lexical depth. Undefined: the store's default, `lexicalPool` (core/ranking/bm25f.ts).
   */
  lexicalPool?: number;
  /** How each leg's raw scores are read on a small pool (`LEG_SMALL_POOL`). */
  smallPool: Readonly<Record<string, LegScale>>;
}

/**
 * How each leg's raw scores are read when the candidate pool is small (core/ranking/score-fusion.ts
 * `LegScale`). The word legs score 0 for a memory that shares no query word, so a candidate they did not
 * return is a non-match (0), not their weakest match: without this, on a 30-memory store the second of
 * two lexical matches took the leg's floor with every non-match and a z-score below the pool's mean,
 * under memories that matched nothing. `minSpread` keeps a tiny pool from stretching near-equal scores
 * to whole units: one BM25 point, half a trigram point, 0.05 of cosine, half a logit.
 */
export const LEG_SMALL_POOL: Readonly<Record<string, { missing?: number; minSpread?: number }>> = {
  lexical: { missing: 0, minSpread: 1 },
  identifier: { missing: 0, minSpread: 0.5 },
  concept: { missing: 0, minSpread: 1 },
  vector: { minSpread: 0.05 },
  words: { minSpread: 0.05 },
  rerank: { minSpread: 0.5 },
};

export const RECALL_TUNING: RecallTuning = {
  fusion: 'score',
  normalisation: 'zscore',
  weights: {
    lexical: 1,
    identifierCode: 1,
    identifierPlain: 0.1,
    words: 0.3,
    concept: 1.5,
    rerank: 2,
  },
  session: 0.3,
  entity: 0.7,
  bm25f: RECALL_BM25F,
  lexicalDepth: 50,
  smallPool: LEG_SMALL_POOL,
};

/**
 * Score-fusion weight of a sentence model's vector leg; models not measured here count fully. USE lite
 * 0.5 since its vectors hold a vector per context line (retrieval/embed-pending.ts): on LoCoMo 0–4 with
 * words 0.3 and entity 0.7, USE 0.2 / 0.3 / 0.5 / 0.7 scored R@10 / MRR@10 0.856 / 0.579,
 * 0.859 / 0.581, **0.868 / 0.580**, 0.868 / 0.580 (one vector of the whole context: 0.2 was best).
 */
export const SCORE_VECTOR_WEIGHTS = { hash: 0.1, useLite: 0.5, other: 1 } as const;

export function scoreVectorWeight(model: string): number {
  if (/^hash-v\d+-\d+$/u.test(model)) return SCORE_VECTOR_WEIGHTS.hash;
  if (model === 'use-lite-512') return SCORE_VECTOR_WEIGHTS.useLite;
  return SCORE_VECTOR_WEIGHTS.other;
}
