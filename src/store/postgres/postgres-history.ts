/**
 * Reading and appending a store's history (audit entries, injection ledger) in pages, for copying one
 * store into another (`mnemo migrate-store`). Copied audit entries go through the transaction's audit
 * buffer, so they join this store's chain under its lock like every other entry.
 */
import { copiedAuditDetail, toAuditEntry } from '../audit-chain.js';
import type { AuditEntry, InjectionRecord } from '../store.js';
import type { PgQueryable } from './pg-like.js';
import { auditPage } from './postgres-audit.js';
import { injectionPage } from './postgres-injections.js';
import type { PgWriteContext } from './postgres-writes.js';

export async function readAuditPage(
  db: PgQueryable,
  afterSeq: number,
  limit: number,
): Promise<AuditEntry[]> {
  return (await auditPage(db, afterSeq, limit)).map(toAuditEntry);
}

export async function importAuditIn(
  ctx: PgWriteContext,
  source: string,
  entries: readonly AuditEntry[],
): Promise<number> {
  const { rows } = await ctx.db.query<{ done: string | number }>(
    `SELECT coalesce(max(((detail::jsonb) -> 'copiedFrom' ->> 'seq')::bigint), 0) AS done
     FROM audit_log WHERE (detail::jsonb) -> 'copiedFrom' ->> 'source' = $1`,
    [source],
  );
  const done = Number(rows[0]?.done ?? 0);
  let appended = 0;
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (entry.seq <= done) continue;
    ctx.audit.add(entry.at, entry.action, entry.memoryId, copiedAuditDetail(source, entry));
    appended += 1;
  }
  return appended;
}

export async function readInjectionsPage(
  db: PgQueryable,
  afterSeq: number,
  limit: number,
): Promise<InjectionRecord[]> {
  return injectionPage(db, afterSeq, limit);
}

export async function importInjectionsIn(
  ctx: PgWriteContext,
  records: readonly InjectionRecord[],
): Promise<number> {
  let appended = 0;
  for (const record of records) {
    const { rowCount } = await ctx.db.query(
      `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, tokens,
         withheld, author_user, index_ids)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
       WHERE NOT EXISTS (SELECT 1 FROM injections WHERE at = $1 AND session_id = $2 AND event = $3
         AND memory_ids = $6::text[])`,
      [
        record.at,
        record.sessionId,
        record.event,
        record.source,
        record.projectKey,
        record.memoryIds,
        record.tokens,
        JSON.stringify(record.withheld),
        record.author,
        record.indexIds,
      ],
    );
    appended += rowCount ?? 0;
  }
  return appended;
}
