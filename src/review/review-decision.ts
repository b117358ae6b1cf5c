/**
 * Review decisions on quarantined memories, the one path every human channel (the CLI's `approve` and
 * `reject`, the web viewer) goes through. A decision changes the review state only, never the origin, so
 * an approved network capture stays recall-only; it is audited with the actor who made it (channel and
 * OS user) and when. Only human channels call this: no hook reaches it, and the one MCP tool that does
 * (`review_memory`) decides only on its client's user's own answer to an elicitation, never on the model's.
 */
import { userInfo } from 'node:os';

import { MemoryError } from '../core/errors.js';
import { injectionEligibility } from '../core/gate/injection-eligibility.js';
import type { Memory, MemoryId, QuarantineState } from '../core/memory.js';
import type { Logger } from '../log/log.js';
import type { MemoryStore } from '../store/store.js';
import { clusterForReview, type ClusterReview } from './cluster-review.js';
import { getExistingMemory } from './explain-memory.js';

/** What a person decides about a held memory. */
export type ReviewTarget = 'approved' | 'rejected';

/**
 * The human channels that may decide: the CLI, the web viewer, and a person answering an MCP client's
 * elicitation (`mcp-elicitation:<client name>`).
 */
export type ReviewChannel = 'cli' | 'web-ui' | `mcp-elicitation:${string}`;

/** States each decision may start from. Approving a memory that was never held is a mistake. */
export const REVIEW_FROM: Readonly<Record<ReviewTarget, readonly QuarantineState[]>> = {
  approved: ['pending', 'rejected'],
  rejected: ['pending', 'approved', 'none'],
};

export interface ReviewDeps {
  store: MemoryStore;
  log: Logger;
}

/** The cluster a decision acted on as one (threat model W8). */
export interface ClusterAction {
  clusterId: string;
  reason: string;
  source: string;
  /** Every member still stored when the decision began, the decided memory included, oldest first. */
  memberIds: MemoryId[];
  /** Members the decision changed (approved, rejected, or deleted). */
  changed: number;
  /** Their ids, in the order of `memberIds`. */
  changedIds: MemoryId[];
}

/** The outcome of one decision. */
export interface ReviewResult {
  memory: Memory;
  /** False when the memory already was in the target state (nothing written). */
  changed: boolean;
  /** After the decision: may it be injected proactively? (Approval never widens an untrusted origin.) */
  injectable: boolean;
  /** Set when the memory is a member of a fragment cluster: the decision covered every member. */
  cluster?: ClusterAction;
}

/** `<channel>:<OS user>` as recorded in the audit trail; the channel alone when no user can be read. */
export function reviewActor(channel: ReviewChannel, user: () => string = osUser): string {
  let name = '';
  try {
    name = user().trim();
  } catch {
    // No passwd entry (some containers): the channel still says who decided.
  }
  return name === '' ? channel : `${channel}:${name}`;
}

function osUser(): string {
  return userInfo().username;
}

/**
 * Moves one memory to `target`; when it is a member of a fragment cluster, every member with it (a
 * cluster is reviewed as one, so no fragment of an assembled instruction slips through on its own).
 * Throws NOT_FOUND, INVALID_INPUT for a malformed id, CONFLICT when the memory is in a state the
 * decision cannot start from.
 */
export async function decideReview(
  deps: ReviewDeps,
  rawId: string,
  target: ReviewTarget,
  actor: string,
): Promise<ReviewResult> {
  const memory = await getExistingMemory(deps.store, rawId);
  if (memory.quarantine !== target && !REVIEW_FROM[target].includes(memory.quarantine)) {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${memory.id} is not awaiting review (state ${memory.quarantine}); nothing to approve. ` +
        'Run `mnemo review` to see the memories that are.',
    );
  }
  const cluster = await clusterForReview(deps.store, memory.id);
  if (cluster !== undefined) return decideCluster(deps, memory, cluster, target, actor);
  if (memory.quarantine === target) {
    return { memory, changed: false, injectable: injectionEligibility(memory).eligible };
  }
  const updated = await deps.store.setQuarantine(memory.id, target, actor);
  deps.log.info('review decision', { id: updated.id, quarantine: target, actor });
  return { memory: updated, changed: true, injectable: injectionEligibility(updated).eligible };
}

async function decideCluster(
  deps: ReviewDeps,
  memory: Memory,
  cluster: ClusterReview,
  target: ReviewTarget,
  actor: string,
): Promise<ReviewResult> {
  const members = cluster.stored;
  const changedIds: MemoryId[] = [];
  let decided = memory;
  for (const member of members) {
    if (!movesTo(member, target)) continue;
    const updated = await deps.store.setQuarantine(member.id, target, actor);
    if (updated.id === memory.id) decided = updated;
    changedIds.push(member.id);
  }
  const changed = changedIds.length;
  deps.log.info('review decision on a fragment cluster', {
    id: memory.id,
    clusterId: cluster.clusterId,
    members: members.length,
    changed,
    quarantine: target,
    actor,
  });
  return {
    memory: decided,
    changed: decided !== memory,
    injectable: injectionEligibility(decided).eligible,
    cluster: {
      clusterId: cluster.clusterId,
      reason: cluster.reason,
      source: cluster.source,
      memberIds: members.map((m) => m.id),
      changed,
      changedIds,
    },
  };
}

/** Whether a decision to `target` changes `memory` (a member already there, or not held, stays). */
export function movesTo(memory: Memory, target: ReviewTarget): boolean {
  return memory.quarantine !== target && REVIEW_FROM[target].includes(memory.quarantine);
}

/**
 * Rejects a memory and deletes it: the rejection is audited with its actor first, then the row, its
 * index entries and its vector are removed (the audit trail keeps both entries and the content hash).
 * A member of a fragment cluster takes every member with it. Returns the decision as made, before the
 * deletion. Throws like {@link decideReview}.
 */
export async function rejectAndDelete(
  deps: ReviewDeps,
  rawId: string,
  actor: string,
): Promise<ReviewResult> {
  const result = await decideReview(deps, rawId, 'rejected', actor);
  const ids = result.cluster?.memberIds ?? [result.memory.id];
  const deleted: MemoryId[] = [];
  for (const id of ids) {
    if (await deps.store.forget(id)) deleted.push(id);
  }
  deps.log.info('rejected memory deleted', {
    id: result.memory.id,
    deleted: deleted.length,
    actor,
  });
  return result.cluster === undefined
    ? result
    : { ...result, cluster: { ...result.cluster, changed: deleted.length, changedIds: deleted } };
}
