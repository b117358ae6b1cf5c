import { useState } from 'preact/hooks';

import { apiPath, get, post } from '../api.js';
import { clusterQuestion } from '../parts/cluster.js';
import { count } from '../parts/format.js';
import { MemoryList } from '../parts/memory-list.js';
import { Pager } from '../parts/pager.js';
import { announce } from '../parts/status.js';
import { useApi } from '../parts/use-api.js';
import { href, navigate } from '../router.js';
import type { BulkPreview, BulkReport, GroupCount, GroupMarks, MemoryRow, Page } from '../types.js';
import { Problem } from './problem.js';

const STATES = [
  ['pending', 'Awaiting review'],
  ['approved', 'Approved'],
  ['rejected', 'Rejected (kept)'],
  ['held', 'All held'],
] as const;

/** Value, button label, noun, and what the search box finds. */
const GROUPINGS = [
  ['url', 'Page', 'source page', 'source page (exact address)'],
  ['domain', 'Site', 'site', 'site (subdomains included)'],
  ['tool', 'Tool', 'tool', 'tool'],
  ['session', 'Session', 'session', 'session'],
] as const;
type Grouping = (typeof GROUPINGS)[number][0];

export interface ReviewParams {
  state: string;
  by: Grouping | undefined;
  key: string | undefined;
  offset: number;
}

const LIMIT = 25;

export function Review({ project, params }: { project: string | null; params: ReviewParams }) {
  const { state, by, key, offset } = params;
  const list = useApi<Page<MemoryRow> & { marks?: GroupMarks | null }>(
    apiPath('review', {
      project,
      state,
      by: key === undefined ? undefined : by,
      key,
      offset,
      limit: LIMIT,
    }),
  );
  // Only the list answered for this group: the previous group's list, its marks and its buttons must
  // never stand under the new group's name while the new one loads.
  const page = list.current;
  const groups = useApi<{ groups: GroupCount[] }>(
    by === undefined ? null : apiPath('review/groups', { project, state, by }),
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | undefined>();
  const go = (next: Partial<ReviewParams>) => {
    const merged = { ...params, offset: 0, ...next };
    navigate('/review', {
      state: merged.state,
      by: merged.by,
      key: merged.key,
      offset: merged.offset === 0 ? undefined : merged.offset,
    });
  };
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      announce(await work());
      list.reload();
      groups.reload();
    } catch (e) {
      setFailure(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const decide = (memory: MemoryRow, action: 'approve' | 'reject') =>
    run(async () => {
      const cluster = memory.clusterId ?? null;
      const question =
        cluster !== null
          ? clusterQuestion(cluster, memory.clusterMembers ?? 0, action)
          : action === 'reject'
            ? 'Reject this memory and delete it?'
            : null;
      if (question !== null && !confirm(question)) return 'Nothing changed.';
      const answer = await post<{ cluster?: { memberIds: string[] } | null }>(
        `/api/memories/${memory.id}/${action}`,
      );
      const members = answer.cluster?.memberIds.length;
      if (members !== undefined) {
        return action === 'approve'
          ? `Approved all ${members} members of fragment cluster ${cluster ?? ''}.`
          : `Rejected and deleted all ${members} members of fragment cluster ${cluster ?? ''}.`;
      }
      return action === 'approve' ? `Approved ${memory.id}.` : `Rejected and deleted ${memory.id}.`;
    });
  const bulk = (action: 'approve' | 'purge') =>
    run(async () => {
      if (by === undefined || key === undefined) return 'Choose a group first.';
      const group = { action, by, key, state, ...(project === null ? {} : { project }) };
      // Ask the server what the decision moves, fragment cluster members outside the group included.
      const preview = await get<BulkPreview>(apiPath('review/bulk/preview', group));
      if (!confirm(bulkQuestion(action, key, preview))) return 'Nothing changed.';
      const report = await post<BulkReport>('/api/review/bulk', {
        ...group,
        expectOutside: preview.outside,
      });
      const verb = action === 'purge' ? 'Purged' : 'Approved';
      return `${verb} ${count(report.changed, 'memory')} from ${key}${outsideText(report)}.${report.remaining > 0 ? ` ${report.remaining} still match; run it again.` : ''}`;
    });
  const grouping = GROUPINGS.find(([g]) => g === by);
  const groupLabel = grouping?.[2] ?? '';
  const purgeNoun = grouping?.[1].toLowerCase() ?? '';
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Review
      </h1>
      <p class="hint">
        Web and network captures, unknown channels and agent writes in a tainted session wait here.
        Approving lets a memory be recalled without the review label; its origin stays, so it is
        never injected into a session by itself. Rejecting deletes it.
      </p>
      <div class="toolbar">
        <label>
          Show{' '}
          <select value={state} onChange={(e) => go({ state: e.currentTarget.value })}>
            {STATES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <fieldset class="segmented">
          <legend>Group by</legend>
          <button
            type="button"
            aria-pressed={by === undefined}
            onClick={() => go({ by: undefined, key: undefined })}
          >
            Nothing
          </button>
          {GROUPINGS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={by === value}
              onClick={() => go({ by: value, key: undefined })}
            >
              {label}
            </button>
          ))}
        </fieldset>
      </div>
      {failure === undefined ? null : <Problem error={failure} />}
      <div class={by === undefined ? '' : 'split'}>
        {by === undefined ? null : (
          <aside aria-label={`Groups by ${groupLabel}`} class="groups">
            <GroupPicker
              by={by}
              label={groupLabel}
              find={grouping?.[3] ?? ''}
              selected={key}
              groups={groups.data?.groups ?? []}
              onPick={(k) => go({ key: k })}
            />
          </aside>
        )}
        <div>
          {key === undefined || by === undefined ? null : (
            <div class="bulk" role="group" aria-label="Act on the whole group">
              <p>
                <strong>{page === undefined ? '…' : count(page.total, 'memory')}</strong> from{' '}
                {groupLabel} <code>{key}</code>
              </p>
              {page === undefined ? null : page.marks?.hostile === true ? (
                <>
                  <div class="hostile" role="note">
                    <strong>This source is marked hostile:</strong>
                    <ul>
                      {page.marks.marks.map((m) => (
                        <li key={m.mark}>
                          {m.count} {m.meaning}
                        </li>
                      ))}
                    </ul>
                  </div>
                  <button
                    type="button"
                    class="primary danger"
                    disabled={busy || page.total === 0}
                    onClick={() => void bulk('purge')}
                  >
                    Purge everything from this {purgeNoun}
                  </button>
                  <button
                    type="button"
                    class="quiet"
                    disabled={busy || page.total === 0}
                    onClick={() => void bulk('approve')}
                  >
                    Approve all anyway
                  </button>
                </>
              ) : (
                <>
                  <button
                    type="button"
                    class="primary"
                    disabled={busy || page.total === 0}
                    onClick={() => void bulk('approve')}
                  >
                    Approve all
                  </button>
                  <button
                    type="button"
                    class="danger"
                    disabled={busy || page.total === 0}
                    onClick={() => void bulk('purge')}
                  >
                    Purge everything from this {purgeNoun}
                  </button>
                </>
              )}
              <a href={href('/review', { state, by })}>Clear</a>
            </div>
          )}
          {list.error === undefined ? null : <Problem error={list.error} />}
          {page === undefined ? (
            <p aria-live="polite">Loading…</p>
          ) : (
            <>
              <MemoryList
                memories={page.items}
                empty={state === 'pending' ? 'Nothing awaits review.' : 'No memories here.'}
                actions={(memory) => (
                  <>
                    {memory.quarantine === 'pending' || memory.quarantine === 'rejected' ? (
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => void decide(memory, 'approve')}
                      >
                        {memory.clusterId == null
                          ? 'Approve'
                          : `Approve all ${memory.clusterMembers ?? ''}`}
                        <span class="visually-hidden"> {memory.id}</span>
                      </button>
                    ) : null}
                    <button
                      type="button"
                      class="danger"
                      disabled={busy}
                      onClick={() => void decide(memory, 'reject')}
                    >
                      {memory.clusterId == null
                        ? 'Reject'
                        : `Reject all ${memory.clusterMembers ?? ''}`}
                      <span class="visually-hidden"> {memory.id}</span>
                    </button>
                  </>
                )}
              />
              <Pager
                total={page.total}
                offset={page.offset}
                limit={page.limit}
                noun="memory"
                onPage={(next) => go({ offset: next, key, by })}
              />
            </>
          )}
        </div>
      </div>
    </section>
  );
}

/** The confirmation of a group decision: what it moves in the group, and beyond it with a cluster. */
function bulkQuestion(action: 'approve' | 'purge', key: string, preview: BulkPreview): string {
  const beyond = preview.clusters.filter((c) => c.outsideIds.length > 0).map((c) => c.clusterId);
  const outside =
    preview.outside === 0
      ? ''
      : ` and ${count(preview.outside, 'more memory')} outside this group: members of fragment cluster${beyond.length === 1 ? '' : 's'} ${beyond.join(', ')}, which a decision moves as one`;
  return action === 'purge'
    ? `Delete ${count(preview.changed, 'memory')} from ${key}${outside}? This cannot be undone; the audit trail keeps a record.`
    : `Approve ${count(preview.changed, 'memory')} from ${key}${outside}? Their origin stays as it is: recall only.`;
}

/** The members outside the group a decision moved, and the clusters that took them along. */
function outsideText(report: BulkReport): string {
  if (report.outside === 0) return '';
  const beyond = report.clusters.filter((c) => c.outsideIds.length > 0).map((c) => c.clusterId);
  return `, and ${count(report.outside, 'more memory')} outside it with fragment cluster${beyond.length === 1 ? '' : 's'} ${beyond.join(', ')}`;
}

function GroupPicker(props: {
  by: Grouping;
  label: string;
  find: string;
  selected: string | undefined;
  groups: GroupCount[];
  onPick: (key: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const named = props.groups.filter((g): g is GroupCount & { key: string } => g.key !== null);
  const unnamed = props.groups.find((g) => g.key === null);
  return (
    <>
      <form
        class="group-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim() !== '') props.onPick(typed.trim());
        }}
      >
        <label for="group-key">Find a {props.find}</label>
        <input id="group-key" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        <button type="submit">Show</button>
      </form>
      {named.length === 0 ? (
        <p class="empty">No memory here has a {props.label}.</p>
      ) : (
        <ul class="group-list">
          {named.map((g) => (
            <li key={g.key}>
              <button
                type="button"
                aria-pressed={props.selected === g.key}
                onClick={() => props.onPick(g.key)}
                title={g.key}
              >
                <span class="group-key">{g.key}</span> <span class="group-count">{g.count}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unnamed === undefined ? null : (
        <p class="note">
          {count(unnamed.count, 'memory')} without a {props.label}.
        </p>
      )}
    </>
  );
}
