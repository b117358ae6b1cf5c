/**
 * Score-level fusion of recall's legs: each leg's raw scores (BM25F, cosine similarity, trigram bm25, a
 * cross-encoder's logits) are normalised over the candidate pool, weighted, and summed with the bounded
 * priors (session, entity). Unlike RRF it keeps how far apart a leg's candidates are: a clear lexical
 * winner stays clear, and a weak leg at a low weight can only reorder near-ties. On LoCoMo (n = 1,982,
 * docs/benchmarks.md) z-score fusion beat weighted RRF on the held-out conversations.
 *
 * The fused order is then given a rank-based relevance, (k + 1) / (k + rank), the scale of a first place
 * in reciprocal-rank fusion: the trust, recency and heat factors multiply it exactly as they multiplied
 * the RRF score, so their documented bounds still hold (an untrusted first place loses to a trusted
 * memory ranked up to k + 1; recency and heat never swap neighbours within the top 40). A z-score could
 * not carry them: its scale depends on the pool, and a two-candidate pool makes any lead look maximal.
 * Pure: the result depends only on the arguments.
 */
import { MemoryError } from '../errors.js';
import { type FusedHit, signalRecord } from './rrf.js';

/** One leg's candidates with their raw scores, higher is better. */
export interface ScoredList {
  signal: string;
  hits: readonly { id: string; score: number }[];
  /** Finite and >= 0. */
  weight: number;
  /**
   * Scores of pool candidates the leg did not return but could score (a vector leg's cosine for a
   * lexical candidate): used for normalisation instead of the leg's floor, without a rank.
   */
  scoresOnly?: ReadonlyMap<string, number>;
  /** How this leg's raw scores are read on a small pool (`LegScale`); absent: the pool alone decides. */
  scale?: LegScale;
}

/**
 * What a leg's raw scores mean outside the pool, so that normalising over 2 candidates does not invent
 * differences. `missing`: the score of a candidate the leg did not return (BM25 of a memory sharing no
 * query word is 0, not the weakest returned match); capped at the leg's floor. `minSpread`: the smallest
 * deviation (z-score) or range (min-max) the leg's scores are divided by, in the leg's raw units, so that
 * two near-equal scores stay near-equal instead of becoming one unit apart.
 */
export interface LegScale {
  missing?: number;
  minSpread?: number;
}

/** A per-candidate prior in [0, 1] (values outside are clamped), added with its weight. */
export interface Prior {
  signal: string;
  values: ReadonlyMap<string, number>;
  weight: number;
}

export type Normalisation = 'zscore' | 'minmax';

export interface ScoreFusionOptions {
  normalisation: Normalisation;
  priors?: readonly Prior[];
  /** k of the rank-based relevance (k + 1) / (k + rank); finite and >= 0. */
  k: number;
}

/**
 * Fuses the lists into one list holding exactly the union of their ids, best first. A candidate a leg did
 * not return takes the leg's `scale.missing` when it has one, else the leg's lowest returned score (it
 * scored no better, or it would have been returned). `score` is (k + 1) / (k + rank) by the fused total, equal totals sharing a rank, so 1 for
 * the best. `contributions` holds each leg's and prior's weighted normalised value. Ties: best rank in
 * any leg, then id. Throws INVALID_INPUT on a repeated signal, a bad weight or a bad k.
 */
export function fuseScores(lists: readonly ScoredList[], options: ScoreFusionOptions): FusedHit[] {
  const priors = options.priors ?? [];
  const { k } = options;
  if (!Number.isFinite(k) || k < 0) {
    throw new MemoryError('INVALID_INPUT', `Fusion k must be a finite number >= 0, got ${k}.`);
  }
  const signals = new Set<string>();
  for (const { signal, weight } of [...lists, ...priors]) {
    if (signals.has(signal)) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Signal "${signal}" appears twice; give each its own name.`,
      );
    }
    signals.add(signal);
    if (!Number.isFinite(weight) || weight < 0) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Weight of signal "${signal}" must be a finite number >= 0, got ${weight}.`,
      );
    }
  }
  const ordered = [...lists].sort((a, b) => compare(a.signal, b.signal));
  const pool = new Map<string, Candidate>();
  const perList = ordered.map((list) => {
    const scores = new Map<string, number>();
    for (const hit of list.hits) {
      if (scores.has(hit.id) || !Number.isFinite(hit.score)) continue;
      scores.set(hit.id, hit.score);
      let candidate = pool.get(hit.id);
      if (candidate === undefined) {
        candidate = { id: hit.id, bestRank: Infinity, ranks: [], contributions: [], total: 0 };
        pool.set(hit.id, candidate);
      }
      const rank = scores.size;
      candidate.bestRank = Math.min(candidate.bestRank, rank);
      candidate.ranks.push([list.signal, rank]);
    }
    return { list, scores };
  });
  const ids = [...pool.keys()];
  for (const { list, scores } of perList) {
    if (scores.size === 0) continue;
    const all = new Map(scores);
    for (const [id, score] of list.scoresOnly ?? []) {
      if (!all.has(id) && pool.has(id) && Number.isFinite(score)) all.set(id, score);
    }
    const normalised = normalise(ids, all, options.normalisation, list.scale);
    for (const [i, id] of ids.entries()) {
      const value = list.weight * normalised[i]!;
      const candidate = pool.get(id)!;
      candidate.total += value;
      if (scores.has(id)) candidate.contributions.push([list.signal, value]);
    }
  }
  for (const prior of [...priors].sort((a, b) => compare(a.signal, b.signal))) {
    for (const candidate of pool.values()) {
      const raw = prior.values.get(candidate.id) ?? 0;
      const value = prior.weight * Math.min(1, Math.max(0, Number.isFinite(raw) ? raw : 0));
      if (value === 0) continue;
      candidate.total += value;
      candidate.contributions.push([prior.signal, value]);
    }
  }
  const sorted = [...pool.values()].sort(
    (a, b) => b.total - a.total || a.bestRank - b.bestRank || compare(a.id, b.id),
  );
  let rank = 0;
  return sorted.map((candidate, i) => {
    if (i === 0 || candidate.total !== sorted[i - 1]!.total) rank = i + 1;
    return {
      id: candidate.id,
      score: (k + 1) / (k + rank),
      ranks: signalRecord(candidate.ranks),
      contributions: signalRecord(candidate.contributions),
      total: candidate.total,
    };
  });
}

/**
 * One leg's scores over the pool: missing candidates take `scale.missing` (at most the leg's lowest
 * score) or else the leg's lowest score. z-score: mean 0, deviation at least `scale.minSpread`; min-max:
 * [0, 1] over a range at least `scale.minSpread`. When every candidate would score the same, the leg only
 * says which candidates it returned (1) and which it did not (0).
 */
export function normalise(
  ids: readonly string[],
  scores: ReadonlyMap<string, number>,
  how: Normalisation,
  scale: LegScale = {},
): number[] {
  const present = [...scores.values()];
  const floor = Math.min(...present);
  const missing = scale.missing === undefined ? undefined : Math.min(scale.missing, floor);
  const everyIdScored = ids.every((id) => scores.has(id));
  const distinct =
    Math.max(...present) > floor || (missing !== undefined && missing < floor && !everyIdScored);
  const values = ids.map((id) => {
    const score = scores.get(id);
    if (!distinct) return score === undefined ? 0 : 1;
    return score ?? missing ?? floor;
  });
  const minSpread = distinct ? Math.max(0, scale.minSpread ?? 0) : 0;
  if (how === 'minmax') {
    const low = Math.min(...values);
    const range = Math.max(Math.max(...values) - low, minSpread);
    return values.map((v) => (range > 0 ? (v - low) / range : 0));
  }
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
  const deviation = Math.max(Math.sqrt(variance), minSpread);
  return values.map((v) => (deviation > 0 ? (v - mean) / deviation : 0));
}

interface Candidate {
  id: string;
  bestRank: number;
  ranks: [string, number][];
  contributions: [string, number][];
  total: number;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
