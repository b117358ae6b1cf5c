/**
 * Review and merge writes on existing memories: the quarantine decision of a person and the write
 * gate's `merge` outcome. Each runs inside the caller's `BEGIN IMMEDIATE` transaction with its audit
 * entry, so a rollback leaves neither the change nor the entry.
 */
import { MemoryError } from '../../core/errors.js';
import type { Memory, MemoryId, QuarantineState } from '../../core/memory.js';
import { appendAudit } from './sqlite-audit.js';
import { refreshAround } from './sqlite-lexical.js';
import { type MemoryRow, selectRowById, toMemory } from './sqlite-rows.js';
import { recordAccessIn, reread, type WriteContext } from './sqlite-writes.js';

function existing(ctx: WriteContext, id: MemoryId): MemoryRow {
  const row = selectRowById(ctx.db, id);
  if (row === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
  }
  return row;
}

/**
 * Sets the review state with an audit entry naming the actor and old → new state. Setting the state a
 * memory already has changes nothing and records nothing. `updated_at` is left alone: heat decays from
 * it, and the audit entry already says when the decision was made.
 */
export function setQuarantineIn(
  ctx: WriteContext,
  id: MemoryId,
  state: QuarantineState,
  actor: string,
): Memory {
  const row = existing(ctx, id);
  if (row.quarantine === state) return toMemory(row);
  ctx.db.prepare('UPDATE memories SET quarantine = ? WHERE seq = ?').run(state, row.seq);
  // A rejected memory neither gives nor gets context (core/text/capture-context.ts).
  if ((state === 'rejected') !== (row.quarantine === 'rejected')) refreshAround(ctx.db, row);
  appendAudit(ctx.db, ctx.at, 'quarantine', id, {
    actor: actor.trim(),
    from: row.quarantine,
    to: state,
  });
  return reread(ctx.db, id);
}

/** One 'cluster' audit entry per member; NOT_FOUND (and nothing recorded) when one is missing. */
export function recordClusterIn(
  ctx: WriteContext,
  ids: readonly MemoryId[],
  detail: Record<string, unknown>,
): void {
  for (const id of ids) existing(ctx, id);
  for (const id of ids) appendAudit(ctx.db, ctx.at, 'cluster', id, detail);
}

/** The same content arrived again and was merged into `id`: one access and one 'merge' audit entry. */
export function recordMergeIn(
  ctx: WriteContext,
  id: MemoryId,
  detail: Record<string, unknown>,
): Memory {
  existing(ctx, id);
  recordAccessIn(ctx, [id]);
  appendAudit(ctx.db, ctx.at, 'merge', id, detail);
  return reread(ctx.db, id);
}
