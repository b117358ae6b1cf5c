/**
 * The retrieval legs of hybrid recall. Each asks the store for raw candidates in rank order; fusion and
 * scoring happen afterwards in pure code. A leg that cannot run says why, for `recall --explain`.
 */
import { LEG_WEIGHTS, vectorLegWeight } from '../core/ranking/recall-fusion.js';
import type { RankedList } from '../core/ranking/rrf.js';
import { extractCodeTerms, queryTerms } from '../core/text/identifiers.js';
import type { Embedder } from '../ports/embedder.js';
import type { LexicalHit, MemoryStore, SearchOptions } from '../store/store.js';

/** Names of the legs, as they appear in `ranks` and explanations. */
export type LegName = 'lexical' | 'vector' | 'identifier';

export interface LegReport {
  name: LegName;
  ran: boolean;
  /** Why the leg did not run. */
  skipped?: string;
  candidates: number;
  /** Its RRF weight in this recall (`core/ranking/recall-fusion.ts`); absent when it did not run. */
  weight?: number;
  /** The vector model, or the terms looked up. */
  detail?: string;
}

export interface LegsResult {
  lists: RankedList[];
  reports: LegReport[];
}

/**
 * Runs every leg that can run, each returning at most `options.limit` candidates. The identifier leg runs
 * for code terms always, and for plain words only when the word index came back short of the depth.
 * On a large store it is the costliest leg (a substring search over trigrams: about 25 ms p50 / 50 ms
 * p95 at 100k memories), and once the word index has filled the depth, plain-word substrings add
 * little: on LoCoMo 0–4 with USE lite, R@10 / MRR@10 0.810 / 0.475 skipped against 0.814 / 0.476 run
 * (turn-only memories: 0.717 / 0.465 against 0.716 / 0.479), see docs/benchmarks.md.
 */
export async function runLegs(
  deps: { store: MemoryStore; embedder?: Embedder | undefined },
  query: string,
  options: SearchOptions,
): Promise<LegsResult> {
  const terms = queryTerms(query);
  const hasCode = extractCodeTerms(query).length > 0;
  const lexical = await deps.store.searchLexical(query, options);
  const identifierSkip =
    terms.length === 0
      ? 'no terms of 3+ characters in the query'
      : !hasCode && lexical.length >= options.limit
        ? 'plain words, and the word index filled the depth'
        : undefined;
  const identifierSearch = (): Promise<LexicalHit[]> =>
    identifierSkip === undefined ? deps.store.searchTerms(terms, options) : Promise.resolve([]);
  let vector: { ids?: string[]; skipped?: string };
  let identifier: LexicalHit[];
  if (deps.store.capabilities.vectorIndex) {
    [vector, identifier] = await Promise.all([vectorLeg(deps, query, options), identifierSearch()]);
  } else {
    // Without a vector index the store scores a candidate set: give it the words' candidates.
    identifier = await identifierSearch();
    const candidates = [...new Set([...lexical, ...identifier].map((hit) => hit.id))];
    vector = await vectorLeg(deps, query, { ...options, candidates });
  }
  const identifierWeight = hasCode ? LEG_WEIGHTS.identifierCode : LEG_WEIGHTS.identifierPlain;
  const vectorWeight = deps.embedder === undefined ? 0 : vectorLegWeight(deps.embedder.model);
  const lists: RankedList[] = [
    { signal: 'lexical', ids: lexical.map((h) => h.id), weight: LEG_WEIGHTS.lexical },
    { signal: 'identifier', ids: identifier.map((h) => h.id), weight: identifierWeight },
  ];
  if (vector.ids !== undefined) {
    lists.push({ signal: 'vector', ids: vector.ids, weight: vectorWeight });
  }
  const reports: LegReport[] = [
    { name: 'lexical', ran: true, candidates: lexical.length, weight: LEG_WEIGHTS.lexical },
    {
      name: 'vector',
      ran: vector.ids !== undefined,
      ...(vector.skipped === undefined ? {} : { skipped: vector.skipped }),
      candidates: vector.ids?.length ?? 0,
      ...(vector.ids === undefined ? {} : { weight: vectorWeight }),
      ...(deps.embedder === undefined ? {} : { detail: deps.embedder.model }),
    },
    {
      name: 'identifier',
      ran: identifierSkip === undefined,
      ...(identifierSkip === undefined
        ? { weight: identifierWeight }
        : { skipped: identifierSkip }),
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
