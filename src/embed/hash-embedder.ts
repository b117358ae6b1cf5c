/**
 * A deterministic, dependency-free embedder: feature hashing (Weinberger et al., ICML 2009) of word
 * unigrams, identifier sub-words and character trigrams into a fixed number of dimensions, L2-normalised.
 * It is a real embedder with lexical rather than learned similarity: texts sharing words, word pieces or
 * spellings land near each other. Tests use it for reproducible vectors; it is also the fallback when no
 * model can be loaded. Loads instantly and never touches the network or disk.
 */
import { MemoryError } from '../core/errors.js';
import { MAX_CONTENT_LENGTH } from '../core/memory.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import { splitIdentifier } from '../core/text/identifiers.js';
import type { Embedder } from '../ports/embedder.js';

/** 256 dimensions keep collisions rare for memory-sized texts (a few hundred features) at 1 KB a vector. */
export const HASH_EMBEDDER_DEFAULT_DIMS = 256;
export const HASH_EMBEDDER_MIN_DIMS = 8;
export const HASH_EMBEDDER_MAX_DIMS = 4096;

/** Weight of a whole word: the strongest evidence of shared meaning this embedder has. */
const WORD_WEIGHT = 1;
/** Weight of each camelCase/snake_case piece of a compound token, so `SqliteStore` ≈ "sqlite store"
 * without the pieces outweighing the exact token. */
const SUBWORD_WEIGHT = 0.5;
/** Weight of each character trigram. A word of n letters has n trigrams, so for ordinary words the
 * trigrams carry about as much mass as the word: typos and inflections (`index`/`indexes`) still match. */
const TRIGRAM_WEIGHT = 0.5;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const NON_SPACE = /\S+/gu;

export interface HashEmbedderOptions {
  /** Integer in [HASH_EMBEDDER_MIN_DIMS, HASH_EMBEDDER_MAX_DIMS]; defaults to HASH_EMBEDDER_DEFAULT_DIMS. */
  dims?: number;
}

/**
 * `Embedder` over `hashEmbed`. Its model id, `hash-v1-<dims>`, names the algorithm version: any change to
 * the features, weights or hash must bump `v1`, or old stored vectors would be compared with new ones.
 * Throws `INVALID_INPUT` for dims outside the allowed range.
 */
export class HashEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number;

  constructor(options: HashEmbedderOptions = {}) {
    const dims = options.dims ?? HASH_EMBEDDER_DEFAULT_DIMS;
    if (!Number.isInteger(dims) || dims < HASH_EMBEDDER_MIN_DIMS || dims > HASH_EMBEDDER_MAX_DIMS) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Hash embedder dims must be an integer from ${HASH_EMBEDDER_MIN_DIMS} to ${HASH_EMBEDDER_MAX_DIMS}, got ${dims}.`,
      );
    }
    this.dims = dims;
    this.model = `hash-v1-${dims}`;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => hashEmbed(text, this.dims)));
  }
}

/**
 * The unit vector of one text (the zero vector for text with no visible characters, which has no
 * features; cosine treats it as similar to nothing). Only the first `MAX_CONTENT_LENGTH` characters
 * count, the size of the largest valid memory.
 */
export function hashEmbed(text: string, dims: number): Float32Array {
  const values = new Float64Array(dims);
  const add = (feature: string, weight: number): void => {
    const hash = fnv1a(feature);
    const index = fmix32(hash) % dims;
    // A second, independent bit picks the sign so that collisions cancel in expectation instead of
    // piling up (the "hashing trick" of Weinberger et al.).
    const sign = fmix32(hash ^ 0x9e3779b9) & 1 ? 1 : -1;
    values[index]! += sign * weight;
  };
  const normalised = text.slice(0, MAX_CONTENT_LENGTH).normalize('NFKC');
  let tokens = normalised.match(WORD) ?? [];
  // Text made only of symbols (`=>`, `¯\_(ツ)_/¯`, emoji) still deserves a vector.
  if (tokens.length === 0) tokens = normalised.match(NON_SPACE) ?? [];
  for (const token of tokens) {
    const word = token.toLowerCase();
    add(`w:${word}`, WORD_WEIGHT);
    const pieces = splitIdentifier(token);
    if (pieces.length > 1) for (const piece of pieces) add(`w:${piece}`, SUBWORD_WEIGHT);
    const chars = Array.from(`<${word}>`);
    for (let i = 0; i + 3 <= chars.length; i++)
      add(`t:${chars.slice(i, i + 3).join('')}`, TRIGRAM_WEIGHT);
  }
  return l2Normalize(values);
}

/** FNV-1a, 32-bit, over UTF-16 code units: tiny, fast and identical on every platform. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: spreads FNV's weak low bits before they pick a dimension. */
function fmix32(input: number): number {
  let h = input >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
