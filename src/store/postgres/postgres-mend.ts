/**
 * The provenance mend of the PostgreSQL store (`MemoryStore.mendProvenance`), the same rule as the
 * SQLite adapter's (`planMend`, store/write-rules.ts), in the caller's transaction with its audit entry.
 */
import { MemoryError } from '../../core/errors.js';
import type { MemoryId } from '../../core/memory.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import type { MendOutcome, ProvenanceMend } from '../store.js';
import { planMend } from '../write-rules.js';
import { selectRowById, toMemory } from './postgres-rows.js';
import { type PgWriteContext, reread } from './postgres-writes.js';

export async function mendProvenanceIn(
  ctx: PgWriteContext,
  id: MemoryId,
  mend: ProvenanceMend,
): Promise<MendOutcome> {
  const row = await selectRowById(ctx.db, id);
  if (row === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
  }
  const current = toMemory(row);
  const plan = planMend(current, mend);
  const changed = Object.keys(plan).sort() as MendOutcome['changed'];
  if (changed.length === 0) return { memory: current, changed };
  const sourceUrl = plan.sourceUrl ?? current.sourceUrl;
  const createdAt = plan.createdAt ?? current.createdAt;
  // A memory never changed since its write moves its heat clock with its birth; an edited one keeps it.
  const updatedAt = current.updatedAt === current.createdAt ? createdAt : current.updatedAt;
  await ctx.db.query(
    `UPDATE memories SET source_url = $1, source_host = $2, origin_tool = $3, created_at = $4,
     updated_at = $5 WHERE seq = $6`,
    [
      sourceUrl,
      sourceHostOf(sourceUrl),
      plan.originTool ?? current.originTool,
      createdAt,
      updatedAt,
      row.seq,
    ],
  );
  ctx.audit.add(ctx.at, 'mend', id, { fields: changed, ...plan });
  return { memory: await reread(ctx.db, id), changed };
}
