/**
 * The file-system half of the staleness check (threat model R5, `R5-dead-path`): which of a session's
 * candidate memories cite a file that no longer exists in the project. Only this project's own memories
 * are checked (a global memory's paths belong to wherever it was written). Bounded: at most
 * {@link MAX_STAT_CALLS} existence checks per hook run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { citedPaths } from '../core/injection/cited-paths.js';
import type { Memory, MemoryId } from '../core/memory.js';

/** Existence checks one hook run may spend. */
export const MAX_STAT_CALLS = 200;

/** Ids of the memories of `projectKey` that cite at least one file missing under it. */
export function staleMemoryIds(
  memories: readonly Memory[],
  projectKey: string | null,
  exists: (path: string) => boolean = existsSync,
): Set<MemoryId> {
  const stale = new Set<MemoryId>();
  if (projectKey === null || projectKey === '' || !exists(projectKey)) return stale;
  const known = new Map<string, boolean>();
  for (const memory of memories) {
    if (memory.visibility !== 'project' || memory.projectKey !== projectKey) continue;
    for (const path of citedPaths(memory.content, projectKey)) {
      let present = known.get(path);
      if (present === undefined) {
        if (known.size >= MAX_STAT_CALLS) return stale;
        present = exists(join(projectKey, path));
        known.set(path, present);
      }
      if (!present) {
        stale.add(memory.id);
        break;
      }
    }
  }
  return stale;
}
