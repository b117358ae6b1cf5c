/**
 * Scope rules for tools that take a memory id: a model sees the memories of its connection's project and
 * the global ones, and nothing else. A memory of another project answers exactly like an id that does not
 * exist, so ids cannot be used to probe other projects (threat model R4).
 */
import { MemoryError } from '../core/errors.js';
import { assertMemoryId, type Memory } from '../core/memory.js';
import type { Scope } from '../store/store.js';
import type { ToolContext } from './tool.js';

/** True when a connection serving `projectKey` may see `memory`. */
export function isVisibleFrom(memory: Memory, projectKey: string | null): boolean {
  return (
    memory.visibility === 'global' || (projectKey !== null && memory.projectKey === projectKey)
  );
}

/** The read scope of a connection: its project (when resolved) plus, unless excluded, global memories. */
export async function readScope(ctx: ToolContext, includeGlobal = true): Promise<Scope> {
  const projectKey = await ctx.projectKey();
  return { projectKey, includeGlobal: includeGlobal || projectKey === null };
}

/** The memory with `id` when visible from this connection; throws NOT_FOUND otherwise. */
export async function visibleMemory(ctx: ToolContext, rawId: string): Promise<Memory> {
  const id = assertMemoryId(rawId);
  const [memory, projectKey] = await Promise.all([ctx.app.store.getMemory(id), ctx.projectKey()]);
  if (memory === undefined || !isVisibleFrom(memory, projectKey)) {
    throw new MemoryError(
      'NOT_FOUND',
      `No memory ${id} in this project or among the global memories. Use recall or list_memories to find current ids.`,
    );
  }
  return memory;
}

/** The connection's project; throws INVALID_INPUT when none resolved (writes need one). */
export async function writableProject(ctx: ToolContext): Promise<string> {
  const projectKey = await ctx.projectKey();
  if (projectKey === null) {
    throw new MemoryError(
      'INVALID_INPUT',
      'No project is open for this MCP connection, so nothing can be saved. Ask the user to start the client inside the project directory.',
    );
  }
  return projectKey;
}
