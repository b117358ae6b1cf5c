import type { ClusterView } from '../types.js';
import { MemoryList } from './memory-list.js';

/**
 * What a decision on a member of a fragment cluster (threat model W8) does, asked before it is made:
 * the cluster is reviewed as one, so the decision moves all `members`.
 */
export function clusterQuestion(
  clusterId: string,
  members: number,
  action: 'approve' | 'reject',
): string {
  return action === 'approve'
    ? `This memory is a member of fragment cluster ${clusterId}, reviewed as one: approving it approves all ${members} members. Their origin stays as it is: recall only. Approve all ${members}?`
    : `This memory is a member of fragment cluster ${clusterId}, reviewed as one: rejecting it deletes all ${members} members. The audit trail keeps a record. Reject and delete all ${members}?`;
}

/** The fragment cluster a memory is held in, on its detail page: each stored member linked. */
export function Cluster({ cluster, self }: { cluster: ClusterView; self: string }) {
  const listed = new Set(cluster.members.map((m) => m.id));
  const unlisted = cluster.memberIds.filter((id) => !listed.has(id));
  return (
    <section aria-labelledby="cluster-title" class="cluster-box">
      <h2 id="cluster-title">Fragment cluster</h2>
      <p>
        Held in fragment cluster <code>{cluster.clusterId}</code>: {cluster.reason} (
        {cluster.source}). Reviewed as one: approving or rejecting any member approves or rejects
        all {cluster.storedCount} stored members.
      </p>
      <MemoryList
        memories={cluster.members}
        empty="No member is stored any more."
        extra={(m) => (m.id === self ? <p class="note">this memory</p> : null)}
      />
      {unlisted.length === 0 ? null : (
        <p class="note">
          Also recorded as members, no longer stored or not visible to you:{' '}
          <span class="mono">{unlisted.join(', ')}</span>
        </p>
      )}
    </section>
  );
}
