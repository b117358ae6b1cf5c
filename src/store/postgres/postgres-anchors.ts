/**
 * Code anchors in the PostgreSQL store (schema v3, the SQLite v5 design): one `anchor_sets` row per
 * resolved memory and one `anchors` row per cited path, with the last check of each file anchor cached
 * on its row. Writes run inside the caller's transaction; a memory's set goes with it (ON DELETE
 * CASCADE) and with its old content (a trigger), as on SQLite.
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
import type { PgQueryable } from './pg-like.js';
import type { PgWriteContext } from './postgres-writes.js';

/** Inserts the set of `memoryId`, which must have none. */
export async function insertAnchorSet(
  db: PgQueryable,
  memoryId: MemoryId,
  set: AnchorSetInput,
  at: string,
): Promise<void> {
  await db.query('INSERT INTO anchor_sets (memory_id, how, resolved_at) VALUES ($1, $2, $3)', [
    memoryId,
    set.how,
    at,
  ]);
  for (const [position, anchor] of set.anchors.entries()) {
    await db.query(
      `INSERT INTO anchors (${ANCHOR_INSERT_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      anchorValues(memoryId, position, anchor),
    );
  }
  if (set.checks !== undefined && set.checks.length > 0) {
    await recordChecksIn(
      db,
      set.checks.map((check) => ({ ...check, memoryId })),
    );
  }
}

/** Sets by memory id, for the ids that have one. */
export async function readAnchorSets(
  db: PgQueryable,
  ids: readonly MemoryId[],
): Promise<Map<MemoryId, AnchorSet>> {
  const list = [...new Set(ids)];
  const sets = (
    await db.query<AnchorSetRow>('SELECT * FROM anchor_sets WHERE memory_id = ANY($1::text[])', [
      list,
    ])
  ).rows;
  const rows = (
    await db.query<AnchorRow>(
      'SELECT * FROM anchors WHERE memory_id = ANY($1::text[]) ORDER BY memory_id, position',
      [list],
    )
  ).rows;
  return assembleAnchorSets(sets, rows);
}

/** Replaces sets with their audit entries; NOT_FOUND for an unknown memory. */
export async function saveAnchorSetsIn(
  ctx: PgWriteContext,
  writes: readonly AnchorSetWrite[],
): Promise<AnchorSet[]> {
  for (const write of writes) {
    const exists = await ctx.db.query('SELECT 1 FROM memories WHERE id = $1 FOR UPDATE', [
      write.memoryId,
    ]);
    if (exists.rows.length === 0) {
      throw new MemoryError(
        'NOT_FOUND',
        `No memory ${write.memoryId}; run \`mnemo list\` to see ids.`,
      );
    }
    const existing = await ctx.db.query('SELECT 1 FROM anchor_sets WHERE memory_id = $1', [
      write.memoryId,
    ]);
    // A backfill only fills what is pending: a set written meanwhile (a re-verification) wins.
    if (existing.rows.length > 0 && write.action === 'backfill') continue;
    await ctx.db.query('DELETE FROM anchor_sets WHERE memory_id = $1', [write.memoryId]);
    await insertAnchorSet(ctx.db, write.memoryId, write.set, ctx.at);
    if (write.action !== 'reverify') continue;
    ctx.audit.add(ctx.at, 'reverify', write.memoryId, reverifyDetail(write));
  }
  const sets = await readAnchorSets(
    ctx.db,
    writes.map((write) => write.memoryId),
  );
  return writes.flatMap((write) => sets.get(write.memoryId) ?? []);
}

/** Caches verdicts on their anchor rows; rows that no longer exist are skipped. */
export async function recordChecksIn(
  db: PgQueryable,
  checks: readonly AnchorCheck[],
): Promise<void> {
  for (const check of checks) {
    await db.query(
      `UPDATE anchors SET checked_at = $1, check_sig = $2, check_head = $3, verdict = $4
       WHERE memory_id = $5 AND path = $6 AND kind = 'file'`,
      [
        check.checkedAt,
        check.signature,
        check.head,
        JSON.stringify(check.verdict),
        check.memoryId,
        check.path,
      ],
    );
  }
}

/** The exported form of the sets of `ids` (no cache), keyed by memory. */
export async function exportAnchorSets(
  db: PgQueryable,
  ids: readonly MemoryId[],
): Promise<Map<MemoryId, NonNullable<ExportedMemory['anchors']>>> {
  const sets = await readAnchorSets(db, ids);
  return new Map(
    [...sets].map(([id, set]) => [
      id,
      { how: set.how, resolvedAt: set.resolvedAt, anchors: set.anchors },
    ]),
  );
}
