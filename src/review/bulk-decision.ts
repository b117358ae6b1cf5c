/**
 * One review decision on a whole group of memories (the web viewer's "approve all" and "purge everything
 * that came from this"). A member of a fragment cluster (threat model W8) is decided with its cluster, so
 * a group decision also moves the cluster's members outside the group: the plan says so before anything
 * changes (`previewMany`, for the confirmation a person reads), the decision can refuse to run when that
 * changed since (`expectOutside`), and the report names every memory outside the group it moved and the
 * cluster that took it along. The plan and the run share one planner, so the preview is what the run does.
 */
import { MemoryError } from '../core/errors.js';
import type { Memory, MemoryId } from '../core/memory.js';
import type { MemoryFilter, MemoryStore } from '../store/store.js';
import type { ClusterInfo } from '../write/fragment-cluster.js';
import type { BulkCluster, BulkEffect, BulkPreview, BulkReport } from './bulk-report.js';
import { clusterForReview } from './cluster-review.js';
import {
  decideReview,
  movesTo,
  rejectAndDelete,
  REVIEW_FROM,
  type ReviewDeps,
  type ReviewResult,
} from './review-decision.js';

/** Most memories of the group one bulk decision takes; the report says what remains. */
export const MAX_BULK = 5000;
const BULK_PAGE = 500;

export type BulkAction = 'approve' | 'purge';

export interface BulkOptions {
  /** Most memories of the group to take ({@link MAX_BULK}). */
  max?: number;
  /**
   * The `outside` count the person confirmed: when the plan now moves a different number of memories
   * outside the group, nothing changes and CONFLICT says so.
   */
  expectOutside?: number;
}

/** One decision of the run: the memory decided, its cluster, and the memories it moves. */
interface Step {
  id: MemoryId;
  cluster: ClusterInfo | undefined;
  moves: MemoryId[];
}

/** What a bulk decision would do to the memories matching `filter`; changes nothing. */
export async function previewMany(
  store: MemoryStore,
  filter: MemoryFilter,
  action: BulkAction,
  max: number = MAX_BULK,
): Promise<BulkPreview> {
  const group = await groupMemories(store, filter, max);
  const ids = group.map((m) => m.id);
  const steps = await plan(store, group, action);
  return { ...effectOf(ids, steps), matched: await store.countMemories(filter) };
}

/**
 * Applies one decision to every memory matching `filter`, up to `max`: approve, or reject and delete.
 * Ids are collected before anything changes, so the decision never chases its own writes; each memory
 * (or cluster) is its own audited transaction. Throws CONFLICT, changing nothing, when `expectOutside`
 * no longer holds.
 */
export async function decideMany(
  deps: ReviewDeps,
  filter: MemoryFilter,
  action: BulkAction,
  actor: string,
  options: BulkOptions = {},
): Promise<BulkReport> {
  const group = await groupMemories(deps.store, filter, options.max ?? MAX_BULK);
  const ids = group.map((m) => m.id);
  const steps = await plan(deps.store, group, action);
  const planned = effectOf(ids, steps);
  if (options.expectOutside !== undefined && planned.outside !== options.expectOutside) {
    throw new MemoryError(
      'CONFLICT',
      `This would now also ${action === 'purge' ? 'delete' : 'approve'} ${planned.outside} ` +
        `memories outside the group (fragment cluster members), not the ${options.expectOutside} ` +
        'you confirmed; nothing changed. Look at the group again and confirm anew.',
    );
  }
  const done: Step[] = [];
  for (const step of steps) {
    let result: ReviewResult;
    try {
      result =
        action === 'purge'
          ? await rejectAndDelete(deps, step.id, actor)
          : await decideReview(deps, step.id, 'approved', actor);
    } catch (error) {
      // Deleted or decided by someone else since the plan: nothing of it moved here.
      if (error instanceof MemoryError && (error.code === 'NOT_FOUND' || error.code === 'CONFLICT'))
        continue;
      deps.log.error('bulk review decision failed part-way', {
        action,
        actor,
        ...effectOf(ids, done),
        error: String(error),
      });
      throw error;
    }
    const moves =
      result.cluster?.changedIds ?? (action === 'purge' || result.changed ? [step.id] : []);
    done.push({ id: step.id, cluster: result.cluster, moves });
  }
  const effect = effectOf(ids, done);
  deps.log.info('bulk review decision', {
    action,
    actor,
    matched: ids.length,
    changed: effect.changed,
    outside: effect.outside,
    clusters: effect.clusters.map((c) => c.clusterId),
  });
  return { ...effect, remaining: await deps.store.countMemories(filter) };
}

/** The memories of the group, newest first, at most `max`. */
async function groupMemories(
  store: MemoryStore,
  filter: MemoryFilter,
  max: number,
): Promise<Memory[]> {
  const group: Memory[] = [];
  while (group.length < max) {
    const page = await store.listMemories({
      ...filter,
      limit: Math.min(BULK_PAGE, max - group.length),
      offset: group.length,
    });
    group.push(...page);
    if (page.length < BULK_PAGE) break;
  }
  return group;
}

/**
 * The decisions the run makes, in order: one per memory of the group, except that a cluster is decided
 * once (through its first member met) and moves what `decideReview` / `rejectAndDelete` move. Purge
 * takes a memory in any state; approve only one a person may approve.
 */
async function plan(
  store: MemoryStore,
  group: readonly Memory[],
  action: BulkAction,
): Promise<Step[]> {
  const covered = new Set<MemoryId>();
  const steps: Step[] = [];
  for (const memory of group) {
    const { id } = memory;
    if (covered.has(id)) continue;
    if (action === 'approve' && !REVIEW_FROM.approved.includes(memory.quarantine)) continue;
    const cluster = await clusterForReview(store, id);
    const members = cluster?.stored ?? [memory];
    for (const member of members) covered.add(member.id);
    const moves = members.filter((m) => action === 'purge' || movesTo(m, 'approved'));
    steps.push({ id, cluster, moves: moves.map((m) => m.id) });
  }
  return steps;
}

/** Counts what `steps` move, inside the group of `ids` and outside it, by cluster. */
function effectOf(ids: readonly MemoryId[], steps: readonly Step[]): BulkEffect {
  const group = new Set(ids);
  const moved = new Set<MemoryId>();
  const clusters = new Map<string, BulkCluster>();
  for (const step of steps) {
    for (const id of step.moves) moved.add(id);
    if (step.cluster === undefined) continue;
    const { clusterId, reason, source } = step.cluster;
    const entry = clusters.get(clusterId) ?? {
      clusterId,
      reason,
      source,
      inGroup: 0,
      outsideIds: [],
    };
    for (const id of step.moves) {
      if (group.has(id)) entry.inGroup += 1;
      else entry.outsideIds.push(id);
    }
    clusters.set(clusterId, entry);
  }
  const changed = [...moved].filter((id) => group.has(id)).length;
  return {
    changed,
    unchanged: ids.length - changed,
    outside: moved.size - changed,
    clusters: [...clusters.values()],
  };
}
