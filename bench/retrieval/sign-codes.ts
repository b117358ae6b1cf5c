/**
 * The quantized first pass `bench:latency` measures against the exact vector leg: sign codes (one bit
 * per dimension, set where the component is positive: binary quantization) of every stored vector held
 * in memory, scored against the float query asymmetrically (ADC: Jégou et al., TPAMI 2011) — the score
 * of a code is Σ qᵢ·(±1), summed a byte at a time from 256-entry tables built per query — then the best
 * `rescore` candidates re-scored by exact cosine from the store's own vectors (`getVectors`). The codes
 * only pick candidates; the order returned is exact cosine over what was re-scored.
 *
 * Code layout: dimension i is bit (i mod 8) of byte ⌊i / 8⌋, least significant first (sqlite-vec's
 * `vec_quantize_binary` order), padded with zero bits to a whole byte.
 */
import { cosineSimilarity, type VectorLike } from '../../src/core/ranking/cosine.js';

/** The sign code of `values`: bit i is 1 when `values[i] > 0` (zero, negative and NaN give 0). */
export function signBits(values: VectorLike): Uint8Array {
  const out = new Uint8Array(Math.ceil(values.length / 8));
  for (let i = 0; i < values.length; i += 1) {
    if ((values[i] ?? 0) > 0) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

/**
 * Per-byte lookup tables of `query`: entry (j, b) is Σ over the 8 dimensions of byte j of
 * +qᵢ where bit is set in b, −qᵢ where it is not (padding dimensions count 0).
 */
export function adcTables(query: VectorLike): Float32Array {
  const bytes = Math.ceil(query.length / 8);
  const tables = new Float32Array(bytes * 256);
  for (let j = 0; j < bytes; j += 1) {
    for (let b = 0; b < 256; b += 1) {
      let sum = 0;
      for (let bit = 0; bit < 8; bit += 1) {
        const q = query[j * 8 + bit] ?? 0;
        sum += (b >> bit) & 1 ? q : -q;
      }
      tables[j * 256 + b] = sum;
    }
  }
  return tables;
}

/** The ADC score of the code at `offset` in `codes`: Σ qᵢ·sign bit i as ±1. */
export function adcScore(tables: Float32Array, codes: Uint8Array, offset: number, bytes: number) {
  let sum = 0;
  for (let j = 0; j < bytes; j += 1) sum += tables[(j << 8) | codes[offset + j]!]!;
  return sum;
}

/** Indices of the `k` highest scores, best first, ties by lower index (a bounded min-heap). */
export function topIndices(scores: Float32Array, k: number): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean =>
    scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const down = (at: number): void => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let m = at;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === at) return;
      [heap[at], heap[m]] = [heap[m]!, heap[at]!];
      at = m;
    }
  };
  for (let i = 0; i < scores.length; i += 1) {
    if (heap.length < k) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0; ) {
        const up = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[up]!)) break;
        [heap[at], heap[up]] = [heap[up]!, heap[at]!];
        at = up;
      }
    } else if (k > 0 && worse(heap[0]!, i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Sign codes of one vector space, in memory, in the order of `ids`. */
export class SignCodeIndex {
  readonly ids: readonly string[];
  readonly bytes: number;
  readonly #codes: Uint8Array;

  constructor(vectors: ReadonlyMap<string, VectorLike>, dims: number) {
    this.ids = [...vectors.keys()];
    this.bytes = Math.ceil(dims / 8);
    this.#codes = new Uint8Array(this.ids.length * this.bytes);
    let at = 0;
    for (const values of vectors.values()) {
      this.#codes.set(signBits(values), at);
      at += this.bytes;
    }
  }

  /** The `rescore` ids whose codes score best against `query`, best first. */
  candidates(query: VectorLike, rescore: number): string[] {
    const tables = adcTables(query);
    const scores = new Float32Array(this.ids.length);
    for (let i = 0; i < this.ids.length; i += 1) {
      scores[i] = adcScore(tables, this.#codes, i * this.bytes, this.bytes);
    }
    return topIndices(scores, rescore).map((i) => this.ids[i]!);
  }
}

/**
 * The `limit` nearest by exact cosine among `candidates`, best first (ties by id), from `vectors` (what
 * the store returned for them): the re-scoring step.
 */
export function rescoreExactly(
  query: VectorLike,
  candidates: readonly string[],
  vectors: ReadonlyMap<string, VectorLike>,
  limit: number,
): { id: string; score: number }[] {
  return candidates
    .flatMap((id) => {
      const v = vectors.get(id);
      return v === undefined ? [] : [{ id, score: cosineSimilarity(query, v) }];
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}

/** |approximate ∩ exact| / |exact| over the first `k` of each: recall@k of one query. */
export function recallAt(k: number, approximate: readonly string[], exact: readonly string[]) {
  const truth = new Set(exact.slice(0, k));
  if (truth.size === 0) return 1;
  return approximate.slice(0, k).filter((id) => truth.has(id)).length / truth.size;
}
