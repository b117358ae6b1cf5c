/**
 * The JSON shapes the viewer's API answers with. Memory text goes through the read-time secret scan
 * (threat model R7: a row written before redaction existed, or edited on disk, still shows placeholders)
 * and reaches the page as data only: the front end renders it as text, never as markup. The front end
 * imports these types (type-only), so the two sides cannot drift apart.
 */
import type { StalenessStatus } from '../core/anchors/staleness.js';
import type { Memory } from '../core/memory.js';
import { redactSecrets } from '../core/redact/redact-secrets.js';
import type { ClusterReview } from '../review/cluster-review.js';
import { isReadableBy } from '../store/reader-scope.js';
import type { MemoryFilter, MemoryStore } from '../store/store.js';

/** Characters of content in a list row. */
export const SNIPPET_CHARS = 280;

/** A memory in a list: everything but the full text. */
export interface MemoryRow {
  id: string;
  kind: string;
  snippet: string;
  projectKey: string;
  visibility: string;
  origin: string;
  trustBand: string;
  quarantine: string;
  originTool: string | null;
  sessionId: string | null;
  sourceUrl: string | null;
  createdAt: string;
  pinned: boolean;
  tags: string[];
  superseded: boolean;
  /** The fragment cluster it is quarantined in (review inbox only), set by the route that reads it. */
  clusterId?: string | null;
  /** How many members of that cluster are stored: what approving or rejecting this one moves. */
  clusterMembers?: number | null;
  /** What the check of its cited files found (memory list), set by the route that checks. */
  staleness?: StalenessStatus;
  /** For a stale memory: which file changed, in words. */
  staleLabel?: string | null;
}

/** Capture telemetry per day, by outcome (counter names: write-steps.ts and the hooks). */
export interface CaptureDay {
  day: string;
  stored: number;
  merged: number;
  rejected: number;
  skipped: number;
}

/** Memory text as it may be shown: secrets redacted at read time too. */
export function displayText(content: string): string {
  return redactSecrets(content).text;
}

export function memoryRow(memory: Memory): MemoryRow {
  const text = displayText(memory.content);
  return {
    id: memory.id,
    kind: memory.kind,
    snippet: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text,
    projectKey: memory.projectKey,
    visibility: memory.visibility,
    origin: memory.origin,
    trustBand: memory.trustBand,
    quarantine: memory.quarantine,
    originTool: memory.originTool,
    sessionId: memory.sessionId,
    sourceUrl: memory.sourceUrl,
    createdAt: memory.createdAt,
    pinned: memory.pinned,
    tags: memory.tags,
    superseded: memory.supersededBy !== null,
  };
}

/** One page of a list: the rows (newest first) and how many match in all. */
export interface MemoryPage {
  total: number;
  offset: number;
  limit: number;
  items: MemoryRow[];
}

/** Reads one page of `filter` and its total: the store pages and counts, nothing more is read. */
export async function memoryPage(
  store: MemoryStore,
  filter: MemoryFilter,
  page: { offset: number; limit: number },
): Promise<MemoryPage> {
  const [items, total] = await Promise.all([
    store.listMemories({ ...filter, limit: page.limit, offset: page.offset }),
    store.countMemories(filter),
  ]);
  return { total, offset: page.offset, limit: page.limit, items: items.map(memoryRow) };
}

/** A memory in full, with its text redacted for display. */
export function memoryFull(memory: Memory): Memory {
  return { ...memory, content: displayText(memory.content) };
}

/** A memory's fragment cluster (threat model W8) on its detail page. */
export interface ClusterView {
  clusterId: string;
  reason: string;
  /** The source in words ("host evil.example"). */
  source: string;
  /** A decision on any member moves every stored member. */
  reviewedAsOne: true;
  /** Every member ever recorded, oldest first (the CLI's list; some may since have been deleted). */
  memberIds: string[];
  /** How many members are stored: what approving or rejecting this memory moves. */
  storedCount: number;
  /** The stored members `reader` may open, oldest first. */
  members: MemoryRow[];
}

export function clusterView(cluster: ClusterReview, reader: string): ClusterView {
  return {
    clusterId: cluster.clusterId,
    reason: cluster.reason,
    source: cluster.source,
    reviewedAsOne: true,
    memberIds: cluster.memberIds,
    storedCount: cluster.stored.length,
    members: cluster.stored.filter((m) => isReadableBy(m, reader)).map(memoryRow),
  };
}

/** One step of a session's timeline. */
export type TimelineEvent =
  | { type: 'capture'; at: string; memory: MemoryRow }
  | {
      type: 'injection';
      at: string;
      seq: number;
      event: string;
      source: string | null;
      tokens: number;
      /** The injected memories the reader may see (ids of the others are not shown). */
      memories: MemoryRow[];
      /** Injected memories deleted since. */
      gone: number;
      /** Ids of `memories` shown as a one-line index entry, not in full. */
      indexed: string[];
      withheld: { id: string; reasons: { reason: string; meaning: string }[] }[];
    };

/** What marks a review group hostile (group-marks.ts). */
export type GroupMark = 'fragment_cluster' | 'tainted' | 'directive' | 'rejected_before';

export interface GroupMarks {
  hostile: boolean;
  marks: { mark: GroupMark; meaning: string; count: number }[];
}
