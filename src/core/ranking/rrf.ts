/**
 * Weighted reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009). Each retrieval leg (lexical,
 * vector, identifier, …) hands over its candidates in rank order; raw scores are deliberately ignored,
 * because BM25 scores and cosine distances live on unrelated scales and rank is the only quantity the legs
 * share. Pure: the result depends only on the arguments, never on the order of the lists.
 */
import { MemoryError } from '../errors.js';

/**
 * The RRF damping constant. 60 is the value of the original paper, where it was robust across
 * collections; it keeps a first place in one leg (1/61) from outweighing a consistent third place in two
 * legs (2/63), which is the agreement-between-legs behaviour hybrid recall wants.
 */
export const RRF_K = 60;

/** The weight of a list that does not name one. Weights are relative, so 1 means "an ordinary leg". */
export const DEFAULT_LIST_WEIGHT = 1;

/** One leg's candidates, best first. */
export interface RankedList {
  /** Names the leg in explanations (`lexical`, `vector`, `identifier`). Unique within one fusion. */
  signal: string;
  /** Candidate ids, best first. A repeated id keeps its best (first) rank. */
  ids: readonly string[];
  /** Finite and >= 0; defaults to `DEFAULT_LIST_WEIGHT`. A weight of 0 lists ids without promoting them. */
  weight?: number;
}

export interface FuseOptions {
  /** Finite and >= 0; defaults to `RRF_K`. Smaller values favour the top few ranks of each leg. */
  k?: number;
}

/** A fused candidate, with what each leg said about it, so `recall --explain` can show its working. */
export interface FusedHit {
  id: string;
  /** Sum over legs of `weight / (k + rank)`. */
  score: number;
  /** 1-based rank of the id in each leg that returned it; legs that did not are absent. */
  ranks: Readonly<Record<string, number>>;
  /** Each leg's term of `score`, keyed like `ranks`. */
  contributions: Readonly<Record<string, number>>;
  /** Score fusion only: the fused total (weighted normalised legs plus priors) the order came from. */
  total?: number;
}

/**
 * Fuses ranked lists into one list holding exactly the union of their ids, each once, best first.
 * Ties on score are broken by the best rank in any leg, then by id, so equal inputs always give equal
 * output. Throws `INVALID_INPUT` on a repeated signal name, a negative or non-finite weight, or a bad `k`:
 * each is a wiring mistake, not a data condition.
 */
export function fuseRankings(lists: readonly RankedList[], options: FuseOptions = {}): FusedHit[] {
  const k = options.k ?? RRF_K;
  if (!Number.isFinite(k) || k < 0) {
    throw new MemoryError('INVALID_INPUT', `RRF k must be a finite number >= 0, got ${k}.`);
  }
  // Summing in a canonical order makes the floating-point result bit-identical whatever order the caller
  // passed the lists in; otherwise near-ties could swap places between two calls.
  const ordered = [...lists].sort((a, b) => compareStrings(a.signal, b.signal));
  const accumulators = new Map<string, Accumulator>();
  for (let i = 0; i < ordered.length; i++) {
    const list = ordered[i]!;
    if (i > 0 && ordered[i - 1]!.signal === list.signal) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Signal "${list.signal}" appears twice; give each ranked list its own name.`,
      );
    }
    const weight = list.weight ?? DEFAULT_LIST_WEIGHT;
    if (!Number.isFinite(weight) || weight < 0) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Weight of signal "${list.signal}" must be a finite number >= 0, got ${weight}.`,
      );
    }
    const seen = new Set<string>();
    for (const id of list.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      const rank = seen.size;
      const contribution = weight / (k + rank);
      let acc = accumulators.get(id);
      if (acc === undefined) {
        acc = { id, score: 0, bestRank: rank, ranks: [], contributions: [] };
        accumulators.set(id, acc);
      }
      acc.score += contribution;
      acc.bestRank = Math.min(acc.bestRank, rank);
      acc.ranks.push([list.signal, rank]);
      acc.contributions.push([list.signal, contribution]);
    }
  }
  return [...accumulators.values()]
    .sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || compareStrings(a.id, b.id))
    .map((acc) => ({
      id: acc.id,
      score: acc.score,
      ranks: signalRecord(acc.ranks),
      contributions: signalRecord(acc.contributions),
    }));
}

/** Signal names come from callers, so the record has no prototype: a leg named `toString` or `__proto__`
 * is an ordinary key, and a missing leg reads as `undefined`, never as an inherited method. */
export function signalRecord(entries: Iterable<readonly [string, number]>): Record<string, number> {
  const record = Object.create(null) as Record<string, number>;
  for (const [signal, value] of entries) record[signal] = value;
  return record;
}

interface Accumulator {
  id: string;
  score: number;
  bestRank: number;
  ranks: [string, number][];
  contributions: [string, number][];
}

// Code-unit order, not localeCompare: ranking must not depend on the machine's locale.
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
