/**
 * Code anchors in the SQLite store (schema v5): one `anchor_sets` row per resolved memory and one
 * `anchors` row per cited path, with the last check of each file anchor cached on its row. Writes run
 * inside the caller's transaction; triggers drop a memory's anchors when it is forgotten or its content
 * changes.
 */
import type { AnchorCheck, AnchorSet, AnchorSetInput } from '../../core/anchors/anchor.js';
import { MemoryError } from '../../core/errors.js';
import type { MemoryId } from '../../core/memory.js';
import {
  ANCHOR_INSERT_COLUMNS,
  type AnchorRow,
  type AnchorSetRow,
  anchorValues,
  assembleAnchorSets,
  reverifyDetail,
} from '../anchor-rows.js';
import type { AnchorSetWrite, ExportedMemory } from '../store.js';
import { appendAudit } from './sqlite-audit.js';
import type { SqliteLike } from './sqlite-like.js';

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
    `INSERT INTO anchors (${ANCHOR_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  set.anchors.forEach((anchor, position) =>
    insert.run(...anchorValues(memoryId, position, anchor)),
  );
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
    .all(list) as AnchorSetRow[];
  const rows = db
    .prepare(
      `SELECT * FROM anchors WHERE memory_id IN (SELECT value FROM json_each(?))
       ORDER BY memory_id, position`,
    )
    .all(list) as AnchorRow[];
  return assembleAnchorSets(sets, rows);
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
    appendAudit(ctx.db, ctx.at, 'reverify', write.memoryId, reverifyDetail(write));
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
