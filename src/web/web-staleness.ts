/**
 * Staleness for the viewer, for every project key: a path key is its own directory, a key derived from
 * a git remote (`git:host/path`) is the directory this process resolved it from (where `mnemo ui` ran,
 * or a session's directory the engine captured from). A project key is never tested as a path by
 * itself: a remote key names no directory, and a path key of a project that moved is not checked.
 */
import { existsSync } from 'node:fs';

import { stalenessFrom } from '../anchors/check-staleness.js';
import type { CheckBudget } from '../anchors/verify-anchors.js';
import { type MemoryStaleness, UNCHECKED } from '../core/anchors/staleness.js';
import type { Memory, MemoryId } from '../core/memory.js';
import { localRootOf } from '../project/project-key.js';
import type { WebContext } from './web-context.js';

/** The directory of `projectKey` on this machine, or null when the project is not known here. */
export function projectDirOf(projectKey: string): string | null {
  const root = localRootOf(projectKey);
  return root !== undefined && existsSync(root) ? root : null;
}

/** The directory a memory's anchors are checked from: its project's, never a global memory's. */
export function memoryDirOf(memory: Memory): string | null {
  return memory.visibility === 'project' ? projectDirOf(memory.projectKey) : null;
}

/**
 * Checks `memories`, each against its own project's directory (one check per project key); a memory
 * whose project is not here is `unchecked`. Verdicts are cached by the check itself.
 */
export async function stalenessOfMany(
  ctx: Pick<WebContext, 'app'>,
  memories: readonly Memory[],
  budget: CheckBudget,
): Promise<Map<MemoryId, MemoryStaleness>> {
  const byProject = new Map<string, Memory[]>();
  for (const memory of memories) {
    if (memory.visibility !== 'project') continue;
    const group = byProject.get(memory.projectKey) ?? [];
    group.push(memory);
    byProject.set(memory.projectKey, group);
  }
  const result = new Map<MemoryId, MemoryStaleness>();
  for (const memory of memories) result.set(memory.id, UNCHECKED);
  for (const [projectKey, group] of byProject) {
    const dir = projectDirOf(projectKey);
    if (dir === null) continue;
    const checked = await stalenessFrom(ctx.app, projectKey, dir, group, budget);
    for (const [id, staleness] of checked) result.set(id, staleness);
  }
  return result;
}
