/**
 * The names and reports of recall's retrieval legs, as `recall --explain`, the engine protocol and the
 * web viewer show them. Types only, so that the viewer's bundle can import them without the legs' code.
 */

/** Names of the legs, as they appear in `ranks` and explanations. */
export type LegName = 'lexical' | 'vector' | 'words' | 'identifier' | 'concept';

export interface LegReport {
  name: LegName;
  ran: boolean;
  /** Why the leg did not run. */
  skipped?: string;
  candidates: number;
  /** Its fusion weight in this recall (`core/ranking/recall-fusion.ts`); absent when it did not run. */
  weight?: number;
  /** The vector model, the terms looked up, or the concepts the query named. */
  detail?: string;
}
