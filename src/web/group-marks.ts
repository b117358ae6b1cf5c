/**
 * What marks a review group (one page, site, tool or session) as hostile, so the inbox never offers
 * "Approve all" as its primary button for it: members held in a fragment cluster (threat model W8),
 * members written in a tainted session, text shaped as instructions to the agent, or memories of the
 * group a person rejected before. The marks only make approving harder, never easier: a group without
 * marks is still untrusted by its origin, and approval never changes an origin.
 */
import { isDirectiveShaped } from '../core/cues/detect-directive.js';
import { clusterForReview } from '../review/cluster-review.js';
import type { MemoryFilter, MemoryStore } from '../store/store.js';
import type { GroupMark, GroupMarks } from './web-views.js';

/** Members read to look for marks: a group past this is judged by its newest ones. */
const MARK_SCAN = 200;

export const MARK_MEANING: Readonly<Record<GroupMark, string>> = {
  fragment_cluster: 'held in a fragment cluster: instruction-shaped pieces from one source',
  tainted: 'written in a session that had read untrusted content',
  directive: 'text that reads as instructions to the agent',
  rejected_before: 'a person rejected memories from this source before',
};

export async function groupMarks(store: MemoryStore, filter: MemoryFilter): Promise<GroupMarks> {
  const { quarantine: _state, ...anyState } = filter;
  const [members, rejected] = await Promise.all([
    store.listMemories({ ...filter, limit: MARK_SCAN }),
    store.countMemories({ ...anyState, quarantine: ['rejected'] }),
  ]);
  const counts = new Map<GroupMark, number>();
  const add = (mark: GroupMark, by = 1) => counts.set(mark, (counts.get(mark) ?? 0) + by);
  for (const memory of members) {
    if (memory.tainted || memory.origin === 'agent_tainted') add('tainted');
    if (isDirectiveShaped(memory.content)) add('directive');
    if ((await clusterForReview(store, memory.id)) !== undefined) add('fragment_cluster');
  }
  if (rejected > 0) add('rejected_before', rejected);
  const marks = [...counts].map(([mark, count]) => ({ mark, meaning: MARK_MEANING[mark], count }));
  return { hostile: marks.length > 0, marks };
}
