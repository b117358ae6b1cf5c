/** Turns texts into vectors. `model` is recorded with every stored vector; vectors of different models
 * are never compared. */
export interface Embedder {
  readonly model: string;
  readonly dims: number;
  /**
   * Weight of each context line in this model's memory vectors (retrieval/embed-pending.ts); omitted:
   * `CONTEXT_LINE_WEIGHT`. A model whose vectors are built differently names that rule in its `model`.
   */
  readonly contextLineWeight?: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
