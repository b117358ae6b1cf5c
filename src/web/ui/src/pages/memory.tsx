import { useState } from 'preact/hooks';

import { apiPath, post } from '../api.js';
import { AuditTable } from '../parts/audit-table.js';
import { OriginBadge, StateBadge } from '../parts/badges.js';
import { Cluster, clusterQuestion } from '../parts/cluster.js';
import { EditPanel } from '../parts/edit-panel.js';
import { projectName, when } from '../parts/format.js';
import { MemoryList } from '../parts/memory-list.js';
import { announce } from '../parts/status.js';
import { useApi } from '../parts/use-api.js';
import { href, navigate } from '../router.js';
import type { AnchorView, MemoryDetail } from '../types.js';
import { Problem } from './problem.js';

export function Memory({ id }: { id: string }) {
  const { data, error, reload } = useApi<MemoryDetail>(
    apiPath(`memories/${encodeURIComponent(id)}`, {}),
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | undefined>();
  if (error !== undefined) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>
          Memory {id}
        </h1>
        <Problem error={error} />
      </section>
    );
  }
  if (data === undefined) return <p aria-live="polite">Loading…</p>;
  const { memory, cluster } = data;
  const act = async (action: 'approve' | 'reject') => {
    const question =
      cluster !== null
        ? clusterQuestion(cluster.clusterId, cluster.storedCount, action)
        : action === 'reject'
          ? 'Reject this memory and delete it? The audit trail keeps a record of the decision.'
          : null;
    if (question !== null && !confirm(question)) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await post<{ cluster?: { memberIds: string[] } | null }>(
        `/api/memories/${memory.id}/${action}`,
      );
      const members = answer.cluster?.memberIds.length;
      const what =
        members === undefined
          ? memory.id
          : `all ${members} members of fragment cluster ${cluster?.clusterId ?? ''}`;
      if (action === 'approve') {
        announce(`Approved ${what}.`);
        reload();
      } else {
        announce(`Rejected and deleted ${what}.`);
        navigate('/review');
      }
    } catch (e) {
      setFailure(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const reviewable = memory.quarantine === 'pending' || memory.quarantine === 'rejected';
  return (
    <article aria-labelledby="page-title" class="detail">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {memory.content.split('\n')[0]?.slice(0, 120) || memory.id}
        </h1>
        <div class="actions">
          {reviewable ? (
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={() => void act('approve')}
            >
              {cluster === null ? 'Approve' : `Approve all ${cluster.storedCount}`}
            </button>
          ) : null}
          <button type="button" class="danger" disabled={busy} onClick={() => void act('reject')}>
            {cluster === null
              ? 'Reject and delete'
              : `Reject and delete all ${cluster.storedCount}`}
          </button>
        </div>
      </div>
      <p class="badges">
        <OriginBadge origin={memory.origin} band={memory.trustBand} />
        <StateBadge state={memory.quarantine} />
        <span class="badge muted">{memory.kind}</span>
        {memory.pinned ? <span class="badge muted">pinned</span> : null}
        {memory.supersededBy === null ? null : <span class="badge muted">superseded</span>}
        {data.anchors.status === 'stale' || data.anchors.status === 'gone' ? (
          <span class="badge state-rejected">stale</span>
        ) : null}
      </p>
      {failure === undefined ? null : <Problem error={failure} />}
      {cluster === null ? null : <Cluster cluster={cluster} self={memory.id} />}
      <EditPanel detail={data} onChanged={reload} />

      <section aria-labelledby="content-title">
        <h2 id="content-title">Content</h2>
        <pre class="content">{memory.content}</pre>
        {memory.redactions > 0 ? (
          <p class="note">
            {memory.redactions} secret{memory.redactions === 1 ? ' was' : 's were'} redacted before
            it was stored (shown as [REDACTED:…]).
          </p>
        ) : null}
      </section>

      <div class="columns">
        <section aria-labelledby="origin-title">
          <h2 id="origin-title">Where it came from</h2>
          <ol class="chain">
            <li>
              <span class="chain-label">Channel</span>
              <span>{data.origin.tool ?? 'not recorded'}</span>
            </li>
            <li>
              <span class="chain-label">Session</span>
              <span>
                {data.origin.session === null ? (
                  'not recorded'
                ) : (
                  <a href={href(`/session/${encodeURIComponent(data.origin.session)}`)}>
                    {data.origin.session}
                  </a>
                )}
                {data.origin.tainted ? ' (tainted by untrusted content when written)' : ''}
              </span>
            </li>
            {data.origin.sourceUrl === null ? null : (
              <li>
                <span class="chain-label">Source</span>
                <span>
                  <a
                    href={href('/review', { by: 'url', key: data.origin.sourceUrl, state: 'held' })}
                  >
                    {data.origin.sourceUrl}
                  </a>
                </span>
              </li>
            )}
            <li>
              <span class="chain-label">Origin</span>
              <span>
                {data.origin.class}: {data.origin.meaning}
              </span>
            </li>
            <li>
              <span class="chain-label">Trust band</span>
              <span>{data.origin.trustBand} (from the origin; approval never changes it)</span>
            </li>
          </ol>

          <h2>What the write gate decided</h2>
          <dl class="facts">
            <dt>Gate</dt>
            <dd>
              {data.gate.reason}: {data.gate.meaning}
            </dd>
            <dt>Redactions</dt>
            <dd>{data.gate.redactions}</dd>
            <dt>Review</dt>
            <dd>{data.gate.quarantine}</dd>
            <dt>Injection</dt>
            <dd>
              {data.injection.eligible ? (
                'may be injected into new sessions when relevant'
              ) : (
                <ul>
                  {data.injection.withheld.map((w) => (
                    <li key={w.reason}>withheld: {w.meaning}</li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </section>

        <section aria-labelledby="facts-title">
          <h2 id="facts-title">Details</h2>
          <dl class="facts">
            <dt>Id</dt>
            <dd class="mono">{memory.id}</dd>
            <dt>Project</dt>
            <dd title={memory.projectKey}>
              {projectName(memory.projectKey)} ({memory.visibility})
            </dd>
            <dt>Author</dt>
            <dd>
              {memory.authorUser === null
                ? 'not recorded'
                : `${memory.authorUser}${memory.authorHost === null ? '' : ` on ${memory.authorHost}`}`}
            </dd>
            <dt>Seen by</dt>
            <dd>
              {memory.authorUser === null
                ? 'every reader of the store'
                : memory.teamVisible
                  ? 'the team'
                  : 'its author only'}
            </dd>
            <dt>Created</dt>
            <dd>{when(memory.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{when(memory.updatedAt)}</dd>
            <dt>Last used</dt>
            <dd>{memory.lastAccessedAt === null ? 'never' : when(memory.lastAccessedAt)}</dd>
            <dt>Uses</dt>
            <dd>{memory.accessCount}</dd>
            <dt>Tags</dt>
            <dd>{memory.tags.length === 0 ? 'none' : memory.tags.join(', ')}</dd>
            <dt>Vector</dt>
            <dd>{memory.embeddingModel ?? 'not embedded yet'}</dd>
            <dt>Content hash</dt>
            <dd class="mono">{memory.contentHash.slice(0, 16)}…</dd>
          </dl>

          <h2>Code anchors</h2>
          <Anchors view={data.anchors} />
        </section>
      </div>

      <section aria-labelledby="history-title">
        <h2 id="history-title">Supersede history</h2>
        {data.history.replacedBy.length === 0 && data.history.replaced.length === 0 ? (
          <p class="empty">Nothing replaced it and it replaced nothing.</p>
        ) : (
          <>
            {data.history.replacedBy.length === 0 ? null : (
              <>
                <h3>Replaced by (newest last)</h3>
                <MemoryList memories={data.history.replacedBy} empty="" />
              </>
            )}
            {data.history.replaced.length === 0 ? null : (
              <>
                <h3>It replaced (newest first)</h3>
                <MemoryList memories={data.history.replaced} empty="" />
              </>
            )}
          </>
        )}
      </section>

      <section aria-labelledby="audit-title">
        <h2 id="audit-title">Audit trail</h2>
        <AuditTable rows={data.audit} />
      </section>
    </article>
  );
}

const STATUS_TEXT: Record<AnchorView['status'], string> = {
  fresh: 'Every file it cites is unchanged since it was written.',
  stale: 'Stale: a file it cites changed, moved or was deleted. It is ranked lower and labelled.',
  gone: 'Every file it cites was deleted: it is no longer injected into sessions.',
  unanchored: 'It cites no file that existed when it was written, so it cannot go stale.',
  pending: 'Its cited files have not been anchored yet (written before anchors existed).',
  unchecked: 'Not checked: the project directory is not on this machine.',
};

const VERDICT_CLASS: Record<string, string> = {
  fresh: 'band-high',
  changed: 'state-rejected',
  renamed: 'band-low',
  deleted: 'state-rejected',
  missing: 'band-low',
};

/** The memory's code anchors: each cited path with what happened to it since. */
function Anchors({ view }: { view: AnchorView }) {
  return (
    <>
      {view.anchors.length === 0 ? (
        <p class="empty">It cites no file.</p>
      ) : (
        <ul class="refs">
          {view.anchors.map((anchor) => (
            <li key={anchor.path}>
              <code>{anchor.path}</code>{' '}
              <span
                class={`badge ${anchor.kind === 'mention' ? 'muted' : (VERDICT_CLASS[anchor.verdict?.state ?? ''] ?? 'muted')}`}
              >
                {anchor.kind === 'mention' ? 'mention' : (anchor.verdict?.state ?? 'not checked')}
              </span>{' '}
              <span class="note">{anchor.description}</span>
              {anchor.symbols !== undefined && anchor.symbols.length > 0 ? (
                <span class="note"> · symbols {anchor.symbols.join(', ')}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <p class="note">
        {view.label === null
          ? STATUS_TEXT[view.status]
          : `${STATUS_TEXT[view.status]} (${view.label})`}
        {view.how === null
          ? ''
          : ` Anchored ${view.how === 'write' ? 'when written' : `by ${view.how}`}.`}
      </p>
    </>
  );
}
