/**
 * Fills in the reader of a scoped read: a store opened as an author reads, by default, as that author
 * (team-visible memories, unauthored ones, and that author's own private ones). Shared by the adapters
 * so both apply the same default.
 */
import type { Memory } from '../core/memory.js';
import type { MemoryFilter, Scope } from './store.js';

/**
 * Whether `reader` may see `memory` in a team store: team-visible, unauthored, or its own. The rule of
 * the filters' author clause, for reads by id (a memory opened from a link, a review decision).
 */
export function isReadableBy(memory: Memory, reader: string | undefined): boolean {
  return (
    reader === undefined ||
    memory.teamVisible ||
    memory.authorUser === null ||
    memory.authorUser === reader
  );
}

export function withReader<T extends MemoryFilter>(filter: T, reader: string | undefined): T {
  const { scope } = filter;
  if (scope === undefined || scope.author !== undefined || reader === undefined) return filter;
  const scoped: Scope = { ...scope, author: reader };
  return { ...filter, scope: scoped };
}
