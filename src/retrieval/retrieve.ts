/**
 * Retrieval: turns a query into ranked memories. Backend-agnostic: it talks to the MemoryStore port
 * only (never a backend) and reads what a store can do from its capabilities.
 *
 * Today it runs the lexical leg alone. Each hit carries its rank per signal (`ranks`) so that fusion
 * with the vector leg can be added without changing the shape callers consume.
 */
import { MAX_LIMIT } from '../config/limits.js';
import { MemoryError } from '../core/errors.js';
import type { Memory, MemoryId } from '../core/memory.js';
import type { MemoryFilter, MemoryStore, Scope } from '../store/store.js';

/** Per-signal 1-based ranks; a signal is absent when it did not return the memory. */
export interface SignalRanks {
  lexical?: number;
}

export interface RankedHit {
  memory: Memory;
  /** Higher is better. Comparable only within one result list. */
  score: number;
  ranks: SignalRanks;
}

export interface RetrieveRequest {
  query: string;
  /** Which memories may be returned. A null project key means global memories only. */
  scope: Scope;
  limit: number;
  filters?: Omit<MemoryFilter, 'scope'>;
  /** Count the returned memories as used (heat, last access). Off by default: browsing is not use. */
  recordAccess?: boolean;
}

/**
 * Returns at most `limit` memories in scope that match `query`, best first. Superseded memories are
 * left out unless `filters.includeSuperseded`. Throws INVALID_INPUT for an empty query or a bad limit.
 */
export async function retrieve(
  deps: { store: MemoryStore },
  request: RetrieveRequest,
): Promise<RankedHit[]> {
  const query = request.query.trim();
  if (query.length === 0) {
    throw new MemoryError('INVALID_INPUT', 'The query is empty. Give words to search for.');
  }
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_LIMIT) {
    throw new MemoryError(
      'INVALID_INPUT',
      `The limit must be a whole number from 1 to ${MAX_LIMIT}; got ${request.limit}.`,
    );
  }
  const lexical = await deps.store.searchLexical(query, {
    ...request.filters,
    scope: request.scope,
    limit: request.limit,
  });
  const memories = await deps.store.getMemories(lexical.map((hit) => hit.id));
  const byId = new Map<MemoryId, Memory>(memories.map((memory) => [memory.id, memory]));
  const hits: RankedHit[] = [];
  lexical.forEach((hit, index) => {
    const memory = byId.get(hit.id);
    // A memory forgotten between the search and the fetch is simply no longer a hit.
    if (memory !== undefined)
      hits.push({ memory, score: hit.score, ranks: { lexical: index + 1 } });
  });
  if (request.recordAccess === true && hits.length > 0) {
    await deps.store.recordAccess(hits.map((hit) => hit.memory.id));
  }
  return hits;
}
