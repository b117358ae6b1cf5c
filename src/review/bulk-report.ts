/**
 * What a bulk review decision does or did (`bulk-decision.ts`), as plain data: the web viewer's API
 * answers with these shapes and its front end imports them (type-only), so this file imports nothing
 * that needs Node.
 */
import type { MemoryId } from '../core/memory.js';

/** A fragment cluster a group decision acted on, and what of it lay outside the group. */
export interface BulkCluster {
  clusterId: string;
  reason: string;
  source: string;
  /** Members of the group it moved. */
  inGroup: number;
  /** Members outside the group it moved with them, oldest first. */
  outsideIds: MemoryId[];
}

/** What a group decision does (a preview) or did (a report) to the group and beyond it. */
export interface BulkEffect {
  /** Memories of the group it changes (approved, or rejected and deleted). */
  changed: number;
  /** Memories of the group matched but left as they were (already approved, or not reviewable). */
  unchanged: number;
  /** Memories outside the group it also changes: members of a fragment cluster of the group. */
  outside: number;
  /** Every fragment cluster it acts on, and what of each lies outside the group. */
  clusters: BulkCluster[];
}

export interface BulkPreview extends BulkEffect {
  /** Memories matching the group; more than `MAX_BULK` are taken in several runs. */
  matched: number;
}

export interface BulkReport extends BulkEffect {
  /** Memories still matching the group afterwards (more than `MAX_BULK` matched, or unchanged). */
  remaining: number;
}
