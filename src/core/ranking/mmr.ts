/**
 * Maximal marginal relevance (Carbonell & Goldstein, SIGIR 1998): an optional re-rank that trades a little
 * relevance for variety, so a context budget is not spent on five rewordings of one fact. Greedy: each
 * step takes the candidate with the best `λ·relevance − (1 − λ)·similarity to what is already taken`.
 */
import { MemoryError } from '../errors.js';
import { cosineSimilarity, type VectorLike } from './cosine.js';

/**
 * Default trade-off. 0.7 leans on relevance: a near-duplicate (cosine ≈ 1) of an already chosen memory
 * loses 0.3, which drops it below any distinct candidate in the upper ~40 % of the relevance range but not
 * below the weakest ones.
 */
export const MMR_LAMBDA = 0.7;

export interface MmrCandidate {
  id: string;
  /** Relevance, higher is better, on any scale (typically `ScoredHit.score`). */
  score: number;
  /** The memory's embedding, or null when it has none yet; all vectors must come from one model. */
  vector: VectorLike | null;
}

export interface MmrOptions {
  /** In [0, 1]: 1 is pure relevance order, 0 pure diversity. Defaults to `MMR_LAMBDA`. */
  lambda?: number;
  /** How many candidates to return; defaults to all of them. */
  limit?: number;
}

/**
 * Re-ranks candidates for diversity and returns at most `limit` of them, each once. Scores are min-max
 * normalised to [0, 1] first so that λ means the same thing for RRF scores (~0.01–0.05) as for any other
 * scale. Similarity is cosine clipped at 0 (opposite meaning is not more useful variety than unrelated),
 * and a candidate without a vector counts as dissimilar to everything: it is never penalised for a
 * redundancy we cannot measure. Equal MMR values keep input order, so `lambda = 1` returns candidates
 * sorted by score with ties in input order. Throws `INVALID_INPUT` for λ outside [0, 1] or a negative limit.
 */
export function mmrRerank<C extends MmrCandidate>(
  candidates: readonly C[],
  options: MmrOptions = {},
): C[] {
  const lambda = options.lambda ?? MMR_LAMBDA;
  if (!(lambda >= 0 && lambda <= 1)) {
    throw new MemoryError('INVALID_INPUT', `MMR lambda must lie in [0, 1], got ${lambda}.`);
  }
  const limit = Math.min(candidates.length, Math.floor(options.limit ?? candidates.length));
  if (!(limit >= 0)) {
    throw new MemoryError('INVALID_INPUT', `MMR limit must be >= 0, got ${options.limit}.`);
  }
  const relevance = normaliseScores(candidates.map((c) => c.score));
  // maxSimilarity[i]: highest similarity of candidate i to anything selected so far; updated once per pick,
  // which keeps the whole re-rank at O(n · limit) cosine computations.
  const maxSimilarity = new Array<number>(candidates.length).fill(0);
  const taken = new Array<boolean>(candidates.length).fill(false);
  const selected: C[] = [];
  while (selected.length < limit) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < candidates.length; i++) {
      if (taken[i]) continue;
      const value = lambda * relevance[i]! - (1 - lambda) * maxSimilarity[i]!;
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    const pick = candidates[best]!;
    taken[best] = true;
    selected.push(pick);
    if (pick.vector === null) continue;
    for (let i = 0; i < candidates.length; i++) {
      const other = candidates[i]!.vector;
      if (taken[i] || other === null) continue;
      const similarity = Math.max(0, cosineSimilarity(pick.vector, other));
      if (similarity > maxSimilarity[i]!) maxSimilarity[i] = similarity;
    }
  }
  return selected;
}

function normaliseScores(scores: readonly number[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (!Number.isFinite(s)) continue;
    min = Math.min(min, s);
    max = Math.max(max, s);
  }
  if (min === Infinity) return scores.map(() => 1);
  const range = max - min;
  // A non-finite score carries no usable relevance; it ranks as the weakest.
  return scores.map((s) => (!Number.isFinite(s) ? 0 : range === 0 ? 1 : (s - min) / range));
}
