/**
 * Code anchors in the SQLite store (schema v5): one `anchor_sets` row per resolved memory and one
 * `anchors` row per cited path, with the last check of each file anchor cached on its row. Writes run
 * inside the caller's transaction; triggers drop a memory's anchors when it is forgotten or its content
 * changes.
 */
import {
  type Anchor,
  type AnchorCheck,
  type AnchorHow,
  type AnchorSet,
  type AnchorSetInput,
  type AnchorVerdict,
  type MentionReason,
} from '../../core/anchors/anchor.js';
import { MemoryError } from '../../core/errors.js';
import type { MemoryId } from '../../core/memory.js';
import type { AnchorSetWrite, ExportedMemory } from '../store.js';
import { appendAudit } from './sqlite-audit.js';
import type { SqliteLike } from './sqlite-like.js';

interface SetRow {
  memory_id: string;
  how: string;
  resolved_at: string;
}

interface AnchorRow {
  memory_id: string;
  position: number;
  path: string;
  kind: string;
  cited_as: string | null;
  blob_id: string | null;
  size: number | null;
  commit_id: string | null;
  source: string | null;
  symbols: string;
  why: string | null;
  checked_at: string | null;
  check_sig: string | null;
  check_head: string | null;
  verdict: string | null;
}

/** Inserts the set of `memoryId`, which must have none. */
export function insertAnchorSet(
  db: SqliteLike,
  memoryId: MemoryId,
  set: AnchorSetInput,
  at: string,
): void {
  db.prepare('INSERT INTO anchor_sets (memory_id, how, resolved_at) VALUES (?, ?, ?)').run(
    memoryId,
    set.how,
    at,
  );
  const insert = db.prepare(
    `INSERT INTO anchors (memory_id, position, path, kind, cited_as, blob_id, size, commit_id, source,
     symbols, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  set.anchors.forEach((anchor, position) => {
    if (anchor.kind === 'file') {
      insert.run(
        memoryId,
        position,
        anchor.path,
        'file',
        anchor.citedAs,
        anchor.blobId,
        anchor.size,
        anchor.commit,
        anchor.source,
        JSON.stringify(anchor.symbols),
        null,
      );
    } else {
      insert.run(
        memoryId,
        position,
        anchor.path,
        'mention',
        null,
        null,
        null,
        null,
        null,
        '[]',
        anchor.why,
      );
    }
  });
  if (set.checks !== undefined && set.checks.length > 0) {
    recordChecksIn(
      db,
      set.checks.map((check) => ({ ...check, memoryId })),
    );
  }
}

/** Sets by memory id, for the ids that have one. */
export function readAnchorSets(db: SqliteLike, ids: readonly MemoryId[]): Map<MemoryId, AnchorSet> {
  const list = JSON.stringify([...new Set(ids)]);
  const sets = db
    .prepare('SELECT * FROM anchor_sets WHERE memory_id IN (SELECT value FROM json_each(?))')
    .all(list) as SetRow[];
  const rows = db
    .prepare(
      `SELECT * FROM anchors WHERE memory_id IN (SELECT value FROM json_each(?))
       ORDER BY memory_id, position`,
    )
    .all(list) as AnchorRow[];
  const byMemory = new Map<string, AnchorRow[]>();
  for (const row of rows) {
    const list = byMemory.get(row.memory_id) ?? [];
    list.push(row);
    byMemory.set(row.memory_id, list);
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

/** Replaces sets with their audit entries; NOT_FOUND for an unknown memory. */
export function saveAnchorSetsIn(
  ctx: { db: SqliteLike; at: string },
  writes: readonly AnchorSetWrite[],
): AnchorSet[] {
  for (const write of writes) {
    const exists = ctx.db.prepare('SELECT 1 FROM memories WHERE id = ?').get(write.memoryId);
    if (exists === undefined) {
      throw new MemoryError(
        'NOT_FOUND',
        `No memory ${write.memoryId}; run \`mnemo list\` to see ids.`,
      );
    }
    const existing = ctx.db
      .prepare('SELECT 1 FROM anchor_sets WHERE memory_id = ?')
      .get(write.memoryId);
    // A backfill only fills what is pending: a set written meanwhile (a re-verification) wins.
    if (existing !== undefined && write.action === 'backfill') continue;
    ctx.db.prepare('DELETE FROM anchors WHERE memory_id = ?').run(write.memoryId);
    ctx.db.prepare('DELETE FROM anchor_sets WHERE memory_id = ?').run(write.memoryId);
    insertAnchorSet(ctx.db, write.memoryId, write.set, ctx.at);
    if (write.action !== 'reverify') continue;
    appendAudit(ctx.db, ctx.at, 'reverify', write.memoryId, {
      ...write.detail,
      anchors: write.set.anchors.filter((a) => a.kind === 'file').length,
      mentions: write.set.anchors.filter((a) => a.kind === 'mention').length,
    });
  }
  const sets = readAnchorSets(
    ctx.db,
    writes.map((write) => write.memoryId),
  );
  return writes.flatMap((write) => sets.get(write.memoryId) ?? []);
}

/** Caches verdicts on their anchor rows; rows that no longer exist are skipped. */
export function recordChecksIn(db: SqliteLike, checks: readonly AnchorCheck[]): void {
  const update = db.prepare(
    `UPDATE anchors SET checked_at = ?, check_sig = ?, check_head = ?, verdict = ?
     WHERE memory_id = ? AND path = ? AND kind = 'file'`,
  );
  for (const check of checks) {
    update.run(
      check.checkedAt,
      check.signature,
      check.head,
      JSON.stringify(check.verdict),
      check.memoryId,
      check.path,
    );
  }
}

/** The exported form of a memory's set (no cache), or null when it has none. */
export function exportAnchors(db: SqliteLike, memoryId: MemoryId): ExportedMemory['anchors'] {
  const set = readAnchorSets(db, [memoryId]).get(memoryId);
  return set === undefined
    ? null
    : { how: set.how, resolvedAt: set.resolvedAt, anchors: set.anchors };
}

/** Inserts an exported set verbatim (its own resolution time). */
export function importAnchors(
  db: SqliteLike,
  memoryId: MemoryId,
  anchors: NonNullable<ExportedMemory['anchors']>,
): void {
  insertAnchorSet(db, memoryId, anchors, anchors.resolvedAt);
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
    size: row.size ?? 0,
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
