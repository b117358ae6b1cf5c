/**
 * Reading one memory for a person, shared by the CLI and the web viewer: the memory by id (or the error
 * that says what to do), and what it replaced and what replaced it. Reads only.
 */
import { MemoryError } from '../core/errors.js';
import { assertMemoryId, type Memory } from '../core/memory.js';
import { isReadableBy } from '../store/reader-scope.js';
import type { MemoryStore } from '../store/store.js';

/** Fetches a memory by id or throws NOT_FOUND with the next step; INVALID_INPUT for a malformed id. */
export async function getExistingMemory(store: MemoryStore, rawId: string): Promise<Memory> {
  const id = assertMemoryId(rawId);
  const memory = await store.getMemory(id);
  if (memory === undefined) throw notFound(id);
  return memory;
}

export function notFound(id: string): MemoryError {
  return new MemoryError('NOT_FOUND', `No memory with id ${id}. Run \`mnemo list\` to see ids.`);
}

/** How far a supersede chain is followed each way: a longer one is a loop or a history nobody reads. */
export const MAX_HISTORY = 20;

/**
 * The memories `memory` replaced (following `supersedes`, newest first) and the ones that replaced it
 * (following `supersededBy`, oldest first), each at most {@link MAX_HISTORY} long. A forgotten link, or
 * a memory `reader` may not see (another author's private one), ends its side of the chain.
 */
export async function supersedeHistory(
  store: MemoryStore,
  memory: Memory,
  reader?: string,
): Promise<{ replaced: Memory[]; replacedBy: Memory[] }> {
  const follow = async (step: (m: Memory) => string | null): Promise<Memory[]> => {
    const chain: Memory[] = [];
    const seen = new Set([memory.id]);
    let next = step(memory);
    while (next !== null && chain.length < MAX_HISTORY && !seen.has(next)) {
      const found = await store.getMemory(next);
      if (found === undefined || !isReadableBy(found, reader)) break;
      chain.push(found);
      seen.add(found.id);
      next = step(found);
    }
    return chain;
  };
  const [replaced, replacedBy] = await Promise.all([
    follow((m) => m.supersedes),
    follow((m) => m.supersededBy),
  ]);
  return { replaced, replacedBy };
}
