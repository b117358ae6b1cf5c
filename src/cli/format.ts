/** Human-readable rendering of memories for the terminal. JSON output does not go through here. */
import { basename } from 'node:path';

import type { Memory } from '../core/memory.js';

/** `global`, or the project's directory name (the full key is in `mnemo get`). */
export function scopeLabel(memory: Memory): string {
  return memory.visibility === 'global'
    ? 'global'
    : basename(memory.projectKey) || memory.projectKey;
}

/** One line of content, whitespace collapsed, cut at `max` characters. */
export function snippet(content: string, max = 160): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Two lines: id, kind, date and scope; then the indented snippet. */
export function formatMemoryLine(memory: Memory, prefix = ''): string {
  const date = memory.createdAt.slice(0, 10);
  const superseded = memory.supersededBy === null ? '' : '  (superseded)';
  return (
    `${prefix}${memory.id}  ${memory.kind}  ${date}  ${scopeLabel(memory)}${superseded}\n` +
    `${' '.repeat(prefix.length)}    ${snippet(memory.content)}\n`
  );
}

/** Every field of a memory, then its full content. */
export function formatMemoryDetail(memory: Memory): string {
  const rows: [string, string][] = [
    ['id', memory.id],
    ['kind', memory.kind],
    ['visibility', memory.visibility],
    ['project', memory.projectKey],
    [
      'origin',
      memory.originTool === null ? memory.origin : `${memory.origin} (${memory.originTool})`,
    ],
    ['session', memory.sessionId ?? '-'],
    ['tags', memory.tags.length === 0 ? '-' : memory.tags.join(', ')],
    ['created', memory.createdAt],
    ['updated', memory.updatedAt],
    [
      'accessed',
      memory.lastAccessedAt === null
        ? 'never'
        : `${memory.lastAccessedAt} (${memory.accessCount} ${memory.accessCount === 1 ? 'time' : 'times'})`,
    ],
    ['pinned', memory.pinned ? 'yes' : 'no'],
    ['supersedes', memory.supersedes ?? '-'],
    ['superseded by', memory.supersededBy ?? '-'],
    ['embedding', memory.embeddingModel ?? 'none'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const header = rows.map(([name, value]) => `${`${name}:`.padEnd(width)}${value}`).join('\n');
  return `${header}\n\n${memory.content}\n`;
}
