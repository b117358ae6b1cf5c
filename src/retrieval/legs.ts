/**
 * The retrieval legs of hybrid recall. Each asks the store for raw candidates in rank order; fusion and
 * scoring happen afterwards in pure code. A leg that cannot run says why, for `recall --explain`.
 */
import type { RankedList } from '../core/ranking/rrf.js';
import { extractCodeTerms, queryTerms } from '../core/text/identifiers.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, SearchOptions } from '../store/store.js';

/** Names of the legs, as they appear in `ranks` and explanations. */
export type LegName = 'lexical' | 'vector' | 'identifier';

/**
 * RRF weights per leg. Lexical (bm25) and vector (semantic) are equal partners, as in the RRF paper. The
 * identifier leg counts fully when the query holds code terms (`NODE_ENV`, `sqlite-store.ts`), where an
 * exact substring is the strongest evidence there is; for plain-word queries (word substrings, so
 * "sqlite store" finds `SqliteStore`) it counts half. Measured on LoCoMo 0-4: skipping it for plain
 * words lowered R@10 (docs/retrieval.md, Measurements).
 */
export const LEG_WEIGHTS = {
  lexical: 1,
  vector: 1,
  identifierCode: 1,
  identifierPlain: 0.5,
} as const;

export interface LegReport {
  name: LegName;
  ran: boolean;
  /** Why the leg did not run. */
  skipped?: string;
  candidates: number;
  /** The vector model, or the terms looked up. */
  detail?: string;
}

export interface LegsResult {
  lists: RankedList[];
  reports: LegReport[];
}

/** Runs every leg that can run, concurrently, each returning at most `options.limit` candidates. */
export async function runLegs(
  deps: { store: MemoryStore; embedder?: Embedder | undefined },
  query: string,
  options: SearchOptions,
): Promise<LegsResult> {
  const terms = queryTerms(query);
  const hasCode = extractCodeTerms(query).length > 0;
  const [lexical, vector, identifier] = await Promise.all([
    deps.store.searchLexical(query, options),
    vectorLeg(deps, query, options),
    terms.length === 0 ? Promise.resolve([]) : deps.store.searchTerms(terms, options),
  ]);
  const lists: RankedList[] = [
    { signal: 'lexical', ids: lexical.map((h) => h.id), weight: LEG_WEIGHTS.lexical },
    {
      signal: 'identifier',
      ids: identifier.map((h) => h.id),
      weight: hasCode ? LEG_WEIGHTS.identifierCode : LEG_WEIGHTS.identifierPlain,
    },
  ];
  if (vector.ids !== undefined) {
    lists.push({ signal: 'vector', ids: vector.ids, weight: LEG_WEIGHTS.vector });
  }
  const reports: LegReport[] = [
    { name: 'lexical', ran: true, candidates: lexical.length },
    {
      name: 'vector',
      ran: vector.ids !== undefined,
      ...(vector.skipped === undefined ? {} : { skipped: vector.skipped }),
      candidates: vector.ids?.length ?? 0,
      ...(deps.embedder === undefined ? {} : { detail: deps.embedder.model }),
    },
    {
      name: 'identifier',
      ran: terms.length > 0,
      ...(terms.length > 0 ? {} : { skipped: 'no terms of 3+ characters in the query' }),
      candidates: identifier.length,
      detail: terms.join(' '),
    },
  ];
  return { lists, reports };
}

async function vectorLeg(
  deps: { store: MemoryStore; embedder?: Embedder | undefined },
  query: string,
  options: SearchOptions,
): Promise<{ ids?: string[]; skipped?: string }> {
  if (!deps.store.capabilities.vectorSearch) return { skipped: 'the store has no vector search' };
  const { embedder } = deps;
  if (embedder === undefined) return { skipped: 'no embedder in this process' };
  const [values] = await embedder.embed([query]);
  if (values === undefined || !values.some((v) => v !== 0)) {
    return { skipped: 'the query has no features for the embedder' };
  }
  // The store keeps one vector space per model, so this only ever meets vectors of `embedder.model`.
  const hits = await deps.store.searchVector({ model: embedder.model, values }, options);
  return { ids: hits.map((h) => h.id) };
}
