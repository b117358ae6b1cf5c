import type { ComponentChildren } from 'preact';

import { href } from '../router.js';
import type { MemoryRow } from '../types.js';
import { RowBadges } from './badges.js';
import { projectName, when } from './format.js';

/** A list of memories, each a link to its detail page. `actions` adds buttons to each row. */
export function MemoryList(props: {
  memories: MemoryRow[];
  empty: string;
  actions?: (memory: MemoryRow) => ComponentChildren;
  extra?: (memory: MemoryRow) => ComponentChildren;
}) {
  if (props.memories.length === 0) return <p class="empty">{props.empty}</p>;
  return (
    <ol class="memory-list">
      {props.memories.map((memory) => (
        <li key={memory.id} class="memory-item" data-id={memory.id}>
          <div class="memory-head">
            <a class="memory-link" href={href(`/memory/${memory.id}`)}>
              {memory.snippet.split('\n')[0] || memory.id}
            </a>
            <RowBadges memory={memory} />
          </div>
          {memory.snippet.includes('\n') ? (
            <p class="memory-more">{memory.snippet.split('\n').slice(1).join(' ').slice(0, 240)}</p>
          ) : null}
          <p class="memory-meta">
            <span>{when(memory.createdAt)}</span>
            <span>
              {projectName(memory.projectKey)}
              {memory.visibility === 'global' ? ' (global)' : ''}
            </span>
            {memory.originTool === null ? null : <span>tool {memory.originTool}</span>}
            {memory.sourceUrl === null ? null : <span class="url">{memory.sourceUrl}</span>}
            {memory.clusterId == null ? null : (
              <span
                class="cluster"
                title="Directive-shaped fragments from one source, reviewed as one: approving or rejecting this memory acts on every member"
              >
                fragment cluster {memory.clusterId}
              </span>
            )}
            <span class="mono">{memory.id}</span>
          </p>
          {props.extra?.(memory)}
          {props.actions === undefined ? null : (
            <div class="row-actions">{props.actions(memory)}</div>
          )}
        </li>
      ))}
    </ol>
  );
}
