/**
 * The row shape of the `anchor_sets` / `anchors` tables, which both backends share, and its mapping to
 * and from the core's anchor types, so each adapter only says how to run its SQL.
 */
import type {
  Anchor,
  AnchorCheck,
  AnchorHow,
  AnchorSet,
  AnchorSetInput,
  AnchorVerdict,
  MentionReason,
} from '../core/anchors/anchor.js';
import type { MemoryId } from '../core/memory.js';
import type { AnchorSetWrite } from './store.js';

/** One `anchor_sets` row. */
export interface AnchorSetRow {
  memory_id: string;
  how: string;
  resolved_at: string;
}

/** One `anchors` row (PostgreSQL returns `size`, a bigint, as a string). */
export interface AnchorRow {
  memory_id: string;
  position: number;
  path: string;
  kind: string;
  cited_as: string | null;
  blob_id: string | null;
  size: string | number | null;
  commit_id: string | null;
  source: string | null;
  symbols: string;
  why: string | null;
  checked_at: string | null;
  check_sig: string | null;
  check_head: string | null;
  verdict: string | null;
}

/** The columns `anchorValues` fills, in its order. */
export const ANCHOR_INSERT_COLUMNS =
  'memory_id, position, path, kind, cited_as, blob_id, size, commit_id, source, symbols, why';

/** The values of one anchor's row, in the order of {@link ANCHOR_INSERT_COLUMNS}. */
export function anchorValues(
  memoryId: MemoryId,
  position: number,
  anchor: AnchorSetInput['anchors'][number],
): (string | number | null)[] {
  const file = anchor.kind === 'file';
  return [
    memoryId,
    position,
    anchor.path,
    anchor.kind,
    file ? anchor.citedAs : null,
    file ? anchor.blobId : null,
    file ? anchor.size : null,
    file ? anchor.commit : null,
    file ? anchor.source : null,
    JSON.stringify(file ? anchor.symbols : []),
    file ? null : anchor.why,
  ];
}

/** Sets by memory id from their rows (anchor rows ordered by memory and position). */
export function assembleAnchorSets(
  sets: readonly AnchorSetRow[],
  rows: readonly AnchorRow[],
): Map<MemoryId, AnchorSet> {
  const byMemory = new Map<string, AnchorRow[]>();
  for (const row of rows) {
    const bucket = byMemory.get(row.memory_id) ?? [];
    bucket.push(row);
    byMemory.set(row.memory_id, bucket);
  }
  const out = new Map<MemoryId, AnchorSet>();
  for (const set of sets) {
    const anchorRows = byMemory.get(set.memory_id) ?? [];
    out.set(set.memory_id, {
      memoryId: set.memory_id,
      how: set.how as AnchorHow,
      resolvedAt: set.resolved_at,
      anchors: anchorRows.map(toAnchor),
      checks: anchorRows.flatMap((row) => toCheck(row) ?? []),
    });
  }
  return out;
}

/** The audit detail of a re-verification: the caller's detail and what the new set holds. */
export function reverifyDetail(write: AnchorSetWrite): Record<string, unknown> {
  return {
    ...write.detail,
    anchors: write.set.anchors.filter((a) => a.kind === 'file').length,
    mentions: write.set.anchors.filter((a) => a.kind === 'mention').length,
  };
}

function toAnchor(row: AnchorRow): Anchor {
  if (row.kind === 'mention') {
    return { kind: 'mention', path: row.path, why: (row.why ?? 'missing') as MentionReason };
  }
  return {
    kind: 'file',
    path: row.path,
    citedAs: row.cited_as,
    blobId: row.blob_id ?? '',
    size: Number(row.size ?? 0),
    commit: row.commit_id,
    source: row.source === 'commit' ? 'commit' : 'worktree',
    symbols: JSON.parse(row.symbols) as string[],
  };
}

function toCheck(row: AnchorRow): AnchorCheck | undefined {
  if (row.kind !== 'file' || row.checked_at === null || row.verdict === null) return undefined;
  return {
    memoryId: row.memory_id,
    path: row.path,
    checkedAt: row.checked_at,
    signature: row.check_sig ?? '',
    head: row.check_head,
    verdict: JSON.parse(row.verdict) as AnchorVerdict,
  };
}
