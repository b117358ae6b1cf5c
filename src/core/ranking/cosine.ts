/**
 * Vector helpers shared by MMR, the embedders and their tests. Every embedder L2-normalises its output,
 * so on stored vectors cosine similarity is a dot product; `cosineSimilarity` still divides by the norms
 * so that it stays correct for vectors from anywhere else.
 */

/** A vector as either embedders (`Float32Array`) or tests (`number[]`) produce it. */
export type VectorLike = ArrayLike<number>;

/**
 * Cosine similarity in [-1, 1]. Returns 0 when either vector has zero norm (an embedder's answer for
 * text with no features): "no evidence of similarity" is the safe reading for ranking, where NaN would
 * poison every comparison it touches (a vector whose components are all below ~1e-154 also counts as zero,
 * since their squares underflow). Throws `RangeError` on a dimension mismatch, which means vectors
 * of different models are being compared (forbidden: see ports/embedder.ts).
 */
export function cosineSimilarity(a: VectorLike, b: VectorLike): number {
  if (a.length !== b.length) {
    throw new RangeError(`Cannot compare vectors of ${a.length} and ${b.length} dimensions.`);
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  const similarity = dot / (Math.sqrt(normA) * Math.sqrt(normB));
  // Rounding can push identical vectors a hair past 1; callers rely on the documented range.
  return Math.max(-1, Math.min(1, similarity));
}

/**
 * A new `Float32Array` with unit L2 norm, in the same direction. A zero (or non-finite) vector comes back
 * as zeros rather than NaN, for the reason given on `cosineSimilarity`.
 */
export function l2Normalize(values: VectorLike): Float32Array {
  let sumSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] ?? 0;
    sumSquares += x * x;
  }
  const out = new Float32Array(values.length);
  const norm = Math.sqrt(sumSquares);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < values.length; i++) out[i] = (values[i] ?? 0) / norm;
  return out;
}
