/**
 * Paged reads of a whole store (an export page) and reading and appending its history (audit entries, injection ledger) in pages, for copying one
 * store into another (`mnemo migrate-store`). Appends run inside the caller's write transaction.
 */
import { copiedAuditDetail, type StoredAuditRow, toAuditEntry } from '../audit-chain.js';
import type { AuditEntry, ExportedMemory, InjectionRecord } from '../store.js';
import { exportAnchors } from './sqlite-anchors.js';
import { appendAudit } from './sqlite-audit.js';
import { listInjectionsFrom } from './sqlite-injections.js';
import type { SqliteLike } from './sqlite-like.js';
import { type MemoryRow, toMemory } from './sqlite-rows.js';
import { readVector } from './sqlite-vectors.js';
import type { WriteContext } from './sqlite-writes.js';

/** One keyset page of an export: memories in id order with their vectors and anchor sets. */
export function exportPage(db: SqliteLike, after: string, limit: number): ExportedMemory[] {
  const rows = db
    .prepare('SELECT * FROM memories WHERE id > ? ORDER BY id LIMIT ?')
    .all(after, limit) as MemoryRow[];
  return rows.map((row) => ({
    ...toMemory(row),
    vector: readVector(db, row.seq, row.embedding_model),
    anchors: exportAnchors(db, row.id),
  }));
}

export function readAuditPage(db: SqliteLike, afterSeq: number, limit: number): AuditEntry[] {
  const rows = db
    .prepare(
      `SELECT seq, at, action, memory_id AS memoryId, detail, prev_hash AS prevHash, hash
       FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?`,
    )
    .all(afterSeq, limit) as StoredAuditRow[];
  return rows.map(toAuditEntry);
}

export function importAuditIn(
  ctx: WriteContext,
  source: string,
  entries: readonly AuditEntry[],
): number {
  const { done } = ctx.db
    .prepare(
      `SELECT coalesce(max(CAST(json_extract(detail, '$.copiedFrom.seq') AS INTEGER)), 0) AS done
       FROM audit_log WHERE json_extract(detail, '$.copiedFrom.source') = ?`,
    )
    .get(source) as { done: number };
  let appended = 0;
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (entry.seq <= done) continue;
    appendAudit(ctx.db, entry.at, entry.action, entry.memoryId, copiedAuditDetail(source, entry));
    appended += 1;
  }
  return appended;
}

export function readInjectionsPage(
  db: SqliteLike,
  afterSeq: number,
  limit: number,
): InjectionRecord[] {
  const rows = db
    .prepare('SELECT seq FROM injections WHERE seq > ? ORDER BY seq LIMIT ?')
    .all(afterSeq, limit) as { seq: number }[];
  if (rows.length === 0) return [];
  const last = rows.at(-1)?.seq ?? afterSeq;
  // The ledger reader returns newest first; this page is the rows between the two bounds.
  return listInjectionsFrom(db, { limit: rows.length + 1, afterSeq, upToSeq: last }).reverse();
}

export function importInjectionsIn(ctx: WriteContext, records: readonly InjectionRecord[]): number {
  let appended = 0;
  for (const record of records) {
    const ids = JSON.stringify(record.memoryIds);
    const present = ctx.db
      .prepare(
        'SELECT 1 FROM injections WHERE at = ? AND session_id = ? AND event = ? AND memory_ids = ?',
      )
      .get(record.at, record.sessionId, record.event, ids);
    if (present !== undefined) continue;
    ctx.db
      .prepare(
        `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, index_ids,
         tokens, withheld, author_user) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.at,
        record.sessionId,
        record.event,
        record.source,
        record.projectKey,
        ids,
        JSON.stringify(record.indexIds),
        record.tokens,
        JSON.stringify(record.withheld),
        record.author,
      );
    appended += 1;
  }
  return appended;
}
