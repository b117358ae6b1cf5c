/**
 * Fills in the reader of a scoped read: a store opened as an author reads, by default, as that author
 * (team-visible memories, unauthored ones, and that author's own private ones). Shared by the adapters
 * so both apply the same default.
 */
import type { MemoryFilter, Scope } from './store.js';

export function withReader<T extends MemoryFilter>(filter: T, reader: string | undefined): T {
  const { scope } = filter;
  if (scope === undefined || scope.author !== undefined || reader === undefined) return filter;
  const scoped: Scope = { ...scope, author: reader };
  return { ...filter, scope: scoped };
}
