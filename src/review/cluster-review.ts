/**
 * A memory's fragment cluster (threat model W8) as a person reviews it, shared by every surface that
 * explains or decides a memory (the CLI, the web viewer, the MCP explain tool): what the audit trail
 * recorded, plus the members still stored, which are exactly what a decision on any member moves.
 * Reads only.
 */
import type { Memory, MemoryId } from '../core/memory.js';
import type { MemoryStore } from '../store/store.js';
import { type ClusterInfo, readCluster } from '../write/fragment-cluster.js';

/** The cluster, and its members as they are now. */
export interface ClusterReview extends ClusterInfo {
  /** Members still stored, the order of `memberIds` (a decision on any member moves all of these). */
  stored: Memory[];
}

/** The cluster memory `id` belongs to, with its stored members; undefined when it is in none. */
export async function clusterForReview(
  store: MemoryStore,
  id: MemoryId,
): Promise<ClusterReview | undefined> {
  const cluster = await readCluster(store, id);
  if (cluster === undefined) return undefined;
  const found = new Map((await store.getMemories(cluster.memberIds)).map((m) => [m.id, m]));
  const stored = cluster.memberIds
    .map((member) => found.get(member))
    .filter((m): m is Memory => m !== undefined);
  return { ...cluster, stored };
}
