/**
 * The fragment-cluster defence's I/O (threat model W8): after a network capture is stored, read the
 * recent network fragments of its project, let the pure rule (`core/gate/decide-cluster.ts`) decide, and
 * record the cluster in the audit trail. Membership lives only in 'cluster' audit entries, which only
 * this write step appends: no tag, no text and no caller claim can put a memory into a cluster or take
 * one out, and nothing here changes a memory's review state (members are pending by origin).
 */
import { isDirectiveShaped } from '../core/cues/detect-directive.js';
import {
  CLUSTER_MAX_MEMBERS,
  CLUSTER_WINDOW_MINUTES,
  type ClusterDecision,
  decideCluster,
  describeSource,
  type Fragment,
  fragmentSource,
} from '../core/gate/decide-cluster.js';
import type { Memory, MemoryId } from '../core/memory.js';
import type { MemoryStore } from '../store/store.js';

/** The audit action that records cluster membership. */
export const CLUSTER_ACTION = 'cluster';

/** A cluster as read back from the audit trail. */
export interface ClusterInfo {
  clusterId: string;
  reason: string;
  /** The source in words ("host evil.example"). */
  source: string;
  /** Every member id ever recorded for the cluster, oldest first (some may since have been deleted). */
  memberIds: MemoryId[];
}

/**
 * Applies the cluster rule to a network memory just stored. Returns the decision (recorded when it is a
 * cluster). Reads at most {@link CLUSTER_MAX_MEMBERS} recent fragments of the project.
 */
export async function clusterNetworkFragment(
  store: MemoryStore,
  memory: Memory,
): Promise<ClusterDecision> {
  if (!isDirectiveShaped(memory.content)) return { cluster: false };
  const source = fragmentSource(memory);
  const since = new Date(
    Date.parse(memory.createdAt) - CLUSTER_WINDOW_MINUTES * 60_000,
  ).toISOString();
  const recent = await store.listMemories({
    scope: { projectKey: memory.projectKey, includeGlobal: false },
    origins: ['network'],
    createdAfter: since,
    createdBefore: memory.createdAt,
    quarantine: ['pending'],
    limit: CLUSTER_MAX_MEMBERS,
    ...(source.kind === 'host'
      ? { sourceDomains: [source.host] }
      : source.tool !== null
        ? { originTools: [source.tool] }
        : {}),
  });
  const fragments: Fragment[] = [];
  for (const other of recent) {
    if (other.id === memory.id) continue;
    const directive = isDirectiveShaped(other.content);
    const clusterId = directive ? ((await readCluster(store, other.id))?.clusterId ?? null) : null;
    fragments.push(asFragment(other, directive, clusterId));
  }
  const decision = decideCluster(asFragment(memory, true, null), fragments);
  if (!decision.cluster) return decision;
  await store.recordCluster(decision.memberIds, {
    clusterId: decision.clusterId,
    reason: decision.reason,
    source: describeSource(decision.source),
    members: decision.memberIds,
    trigger: memory.id,
  });
  return decision;
}

function asFragment(memory: Memory, directive: boolean, clusterId: string | null): Fragment {
  return {
    id: memory.id,
    createdAtMs: Date.parse(memory.createdAt),
    sessionId: memory.sessionId,
    originTool: memory.originTool,
    sourceUrl: memory.sourceUrl,
    directive,
    clusterId,
  };
}

/** The cluster `id` was last recorded in, from its own audit trail, or undefined. */
async function latestClusterEntry(
  store: MemoryStore,
  id: MemoryId,
): Promise<ClusterInfo | undefined> {
  const trail = await store.auditTrail(id);
  for (let i = trail.length - 1; i >= 0; i--) {
    const entry = trail[i];
    if (entry?.action !== CLUSTER_ACTION) continue;
    const { clusterId, reason, source, members } = entry.detail;
    if (typeof clusterId !== 'string' || !Array.isArray(members)) continue;
    return {
      clusterId,
      reason: typeof reason === 'string' ? reason : '',
      source: typeof source === 'string' ? source : '',
      memberIds: members.filter((m): m is MemoryId => typeof m === 'string'),
    };
  }
  return undefined;
}

/**
 * The cluster memory `id` belongs to, with every member: a cluster that grew past one window is recorded
 * in several entries, so membership is followed from member to member (at most
 * {@link CLUSTER_MAX_MEMBERS} reads). Undefined when `id` is in no cluster.
 */
export async function readCluster(
  store: MemoryStore,
  id: MemoryId,
): Promise<ClusterInfo | undefined> {
  const first = await latestClusterEntry(store, id);
  if (first === undefined) return undefined;
  const members = new Set<MemoryId>(first.memberIds);
  const visited = new Set<MemoryId>([id]);
  const queue = [...first.memberIds];
  while (queue.length > 0 && visited.size < CLUSTER_MAX_MEMBERS) {
    const next = queue.shift() as MemoryId;
    if (visited.has(next)) continue;
    visited.add(next);
    const entry = await latestClusterEntry(store, next);
    if (entry?.clusterId !== first.clusterId) continue;
    for (const member of entry.memberIds) {
      if (!members.has(member)) {
        members.add(member);
        queue.push(member);
      }
    }
  }
  return { ...first, memberIds: [...members].sort() };
}
