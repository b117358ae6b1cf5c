/** Turns texts into vectors. `model` is recorded with every stored vector; vectors of different models
 * are never compared. */
export interface Embedder {
  readonly model: string;
  readonly dims: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
