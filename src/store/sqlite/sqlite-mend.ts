/**
 * The provenance mend of the SQLite store (`MemoryStore.mendProvenance`): fills a source URL, tool name
 * or earlier creation time a memory was written without, in the caller's `BEGIN IMMEDIATE` transaction
 * with its audit entry. Which fields change is the shared rule `planMend` (store/write-rules.ts).
 */
import { MemoryError } from '../../core/errors.js';
import type { MemoryId } from '../../core/memory.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import type { MendOutcome, ProvenanceMend } from '../store.js';
import { planMend } from '../write-rules.js';
import { appendAudit } from './sqlite-audit.js';
import { selectRowById, toMemory } from './sqlite-rows.js';
import { reread, type WriteContext } from './sqlite-writes.js';

export function mendProvenanceIn(
  ctx: WriteContext,
  id: MemoryId,
  mend: ProvenanceMend,
): MendOutcome {
  const row = selectRowById(ctx.db, id);
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
  ctx.db
    .prepare(
      `UPDATE memories SET source_url = ?, source_host = ?, origin_tool = ?, created_at = ?,
       updated_at = ? WHERE seq = ?`,
    )
    .run(
      sourceUrl,
      sourceHostOf(sourceUrl),
      plan.originTool ?? current.originTool,
      createdAt,
      updatedAt,
      row.seq,
    );
  appendAudit(ctx.db, ctx.at, 'mend', id, { fields: changed, ...plan });
  return { memory: reread(ctx.db, id), changed };
}
