/**
 * What one session of the injection ledger has been shown, for every backend. A memory injected in full
 * is never sent to that session again (threat model R9); one shown only as an index entry (its id, kind,
 * age and first words) has been pointed at, not read, so a later prompt may still bring it in full, but
 * never point at it again.
 */
import type { MemoryId } from '../core/memory.js';

/** One id of a session's ledger rows, read in render order (row, then position), and how it was shown. */
export interface ShownId {
  readonly id: MemoryId;
  /** Rendered as an index entry in that row. */
  readonly index: boolean;
}

export interface SessionShown {
  /** Every id shown in full at least once, first shown in full first. */
  readonly full: MemoryId[];
  /** Every id shown only as index entries, first shown first. */
  readonly indexOnly: MemoryId[];
}

/** Splits a session's shown ids into those it read in full and those it was only pointed at. */
export function splitShown(rows: readonly ShownId[]): SessionShown {
  const full = new Set<MemoryId>();
  const indexed = new Set<MemoryId>();
  for (const { id, index } of rows) (index ? indexed : full).add(id);
  return { full: [...full], indexOnly: [...indexed].filter((id) => !full.has(id)) };
}
