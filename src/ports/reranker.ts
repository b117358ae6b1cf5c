/** Scores (query, document) pairs jointly, as a cross-encoder does. Higher is more relevant; scores are
 * comparable only within one call. */
export interface Reranker {
  readonly model: string;
  score(query: string, documents: readonly string[]): Promise<number[]>;
}
