/**
 * The retrieval legs of hybrid recall. Each asks the store for raw candidates with raw scores; fusion and
 * scoring happen afterwards in pure code. A leg that cannot run says why, for `recall --explain`.
 */
import type { Bm25fParams } from '../core/ranking/bm25f.js';
import { conceptQuery, conceptsOf, cueCoverage } from '../core/text/concepts.js';
import { extractCodeTerms, queryTerms } from '../core/text/identifiers.js';
import type { Embedder } from '../ports/embedder.js';
import type { LexicalHit, MemoryStore, SearchOptions } from '../store/store.js';
import type { LegName, LegReport } from './leg-report.js';

export type { LegName, LegReport } from './leg-report.js';

/** One leg's candidates, best first, with raw scores (higher is better). */
export interface LegHits {
  name: LegName | 'rerank';
  hits: { id: string; score: number }[];
}

export interface LegsResult {
  legs: LegHits[];
  reports: Omit<LegReport, 'weight'>[];
  /** The query held a code term (the identifier leg then counts fully). */
  hasCode: boolean;
  /** The query vector of each vector leg that ran, for scoring candidates the leg did not return. */
  queryVectors: Map<'vector' | 'words', Float32Array>;
  /** The share of the query a concept-leg hit answers by naming a member (core/text/concepts.ts `cueCoverage`). */
  conceptCoverage: number;
}

export interface LegDeps {
  store: MemoryStore;
  embedder?: Embedder | undefined;
  /** The static word-vector embedder of the second vector leg. */
  wordEmbedder?: Embedder | undefined;
}

/**
 * Runs every leg that can run, each returning at most `options.limit` candidates (the lexical leg
 * `lexicalLimit`). The identifier leg runs for code terms always, and for plain words only when the word
 * index came back short of the depth: on a large store it is the costliest leg (a substring search over
 * trigrams, about 25 ms p50 / 50 ms p95 at 100k memories), and once the word index has filled the depth,
 * plain-word substrings add little (docs/benchmarks.md).
 */
export async function runLegs(
  deps: LegDeps,
  query: string,
  options: SearchOptions & { lexicalLimit?: number; lexicalPool?: number; bm25f?: Bm25fParams },
): Promise<LegsResult> {
  const terms = queryTerms(query);
  const hasCode = extractCodeTerms(query).length > 0;
  const { lexicalLimit, lexicalPool, bm25f, ...filter } = options;
  const lexical = await deps.store.searchLexical(query, {
    ...filter,
    limit: Math.max(filter.limit, lexicalLimit ?? 0),
    ...(bm25f === undefined ? {} : { bm25f }),
    ...(lexicalPool === undefined ? {} : { pool: lexicalPool }),
  });
  const concepts = conceptsOf(query);
  const conceptSearch = (): Promise<LexicalHit[]> =>
    concepts.length === 0
      ? Promise.resolve([])
      : deps.store.searchLexical(conceptQuery(concepts), {
          ...filter,
          ...(bm25f === undefined ? {} : { bm25f }),
          ...(lexicalPool === undefined ? {} : { pool: lexicalPool }),
        });
  const concept = await conceptSearch();
  const identifierSkip =
    terms.length === 0
      ? 'no terms of 3+ characters in the query'
      : !hasCode && lexical.length >= filter.limit
        ? 'plain words, and the word index filled the depth'
        : undefined;
  const identifierSearch = (): Promise<LexicalHit[]> =>
    identifierSkip === undefined ? deps.store.searchTerms(terms, filter) : Promise.resolve([]);
  const vectorLegs = (options: SearchOptions) =>
    Promise.all([
      vectorLeg(deps.store, deps.embedder, query, options),
      vectorLeg(deps.store, deps.wordEmbedder, query, options, WORDS_OFF),
    ]);
  let vector: VectorLegResult;
  let words: VectorLegResult;
  let identifier: LexicalHit[];
  if (deps.store.capabilities.vectorIndex) {
    [[vector, words], identifier] = await Promise.all([vectorLegs(filter), identifierSearch()]);
  } else {
    // Without a vector index the store scores a candidate set: give it the words' candidates.
    identifier = await identifierSearch();
    const candidates = [...new Set([...lexical, ...identifier, ...concept].map((hit) => hit.id))];
    [vector, words] = await vectorLegs({ ...filter, candidates });
  }
  const legs: LegHits[] = [
    { name: 'lexical', hits: lexical },
    { name: 'identifier', hits: identifier },
  ];
  if (concepts.length > 0) legs.push({ name: 'concept', hits: concept });
  if (vector.hits !== undefined) legs.push({ name: 'vector', hits: vector.hits });
  if (words.hits !== undefined) legs.push({ name: 'words', hits: words.hits });
  const vectorReport = (name: 'vector' | 'words', leg: VectorLegResult, embedder?: Embedder) => ({
    name,
    ran: leg.hits !== undefined,
    ...(leg.skipped === undefined ? {} : { skipped: leg.skipped }),
    candidates: leg.hits?.length ?? 0,
    ...(embedder === undefined ? {} : { detail: embedder.model }),
  });
  const reports: LegsResult['reports'] = [
    { name: 'lexical', ran: true, candidates: lexical.length },
    vectorReport('vector', vector, deps.embedder),
    vectorReport('words', words, deps.wordEmbedder),
    {
      name: 'identifier',
      ran: identifierSkip === undefined,
      ...(identifierSkip === undefined ? {} : { skipped: identifierSkip }),
      candidates: identifier.length,
      detail: terms.join(' '),
    },
    {
      name: 'concept',
      ran: concepts.length > 0,
      ...(concepts.length > 0
        ? {}
        : { skipped: 'the query names no concept (core/text/concepts.ts)' }),
      candidates: concept.length,
      ...(concepts.length > 0 ? { detail: concepts.map((c) => c.name).join(', ') } : {}),
    },
  ];
  const queryVectors = new Map<'vector' | 'words', Float32Array>();
  if (vector.query !== undefined) queryVectors.set('vector', vector.query);
  if (words.query !== undefined) queryVectors.set('words', words.query);
  return { legs, reports, hasCode, queryVectors, conceptCoverage: cueCoverage(query, concepts) };
}

/** Why the words leg is off in a process that has no word embedder. */
const WORDS_OFF = 'no word-vector table in this process (`mnemo model words` builds it)';

interface VectorLegResult {
  hits?: { id: string; score: number }[];
  query?: Float32Array;
  skipped?: string;
}

async function vectorLeg(
  store: MemoryStore,
  embedder: Embedder | undefined,
  query: string,
  options: SearchOptions,
  noEmbedder = 'no embedder in this process',
): Promise<VectorLegResult> {
  if (!store.capabilities.vectorSearch) return { skipped: 'the store has no vector search' };
  if (embedder === undefined) return { skipped: noEmbedder };
  const [values] = await embedder.embed([query]);
  if (values === undefined || !values.some((v) => v !== 0)) {
    return { skipped: 'the query has no features for the embedder' };
  }
  // The store keeps one vector space per model, so this only ever meets vectors of `embedder.model`.
  const hits = await store.searchVector({ model: embedder.model, values }, options);
  // Cosine distance in [0, 2] → similarity in [-1, 1], higher is better.
  return { hits: hits.map((h) => ({ id: h.id, score: 1 - h.distance })), query: values };
}
