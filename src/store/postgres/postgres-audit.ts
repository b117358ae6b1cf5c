/**
 * The audit log of the PostgreSQL store (the chain is store/audit-chain.ts). Concurrent transactions
 * would both read the same "last hash", so a transaction collects its entries and appends them all at
 * the end, under a transaction-level advisory lock held until commit: the chain stays one sequence and
 * the lock is held only for the appends, not for the work before them.
 */
import type { MemoryId } from '../../core/memory.js';
import {
  auditEntryHash,
  canonicalJson,
  firstBrokenAuditEntry,
  GENESIS_HASH,
  type StoredAuditRow,
  toAuditEntry,
} from '../audit-chain.js';
import type { AuditEntry } from '../store.js';
import type { PgQueryable } from './pg-like.js';
import { advisoryKey, LOCK_CLASS } from './postgres-locks.js';
import { isoOf } from './postgres-rows.js';

export interface PendingAudit {
  at: string;
  action: string;
  memoryId: MemoryId | null;
  detail: Record<string, unknown>;
}

/** Entries a transaction will append when it commits. */
export class AuditBuffer {
  readonly entries: PendingAudit[] = [];
  add(
    at: string,
    action: string,
    memoryId: MemoryId | null,
    detail: Record<string, unknown>,
  ): void {
    this.entries.push({ at, action, memoryId, detail });
  }
}

/** Appends the buffered entries in order; call last in the transaction, just before COMMIT. */
export async function flushAudit(
  db: PgQueryable,
  schema: string,
  buffer: AuditBuffer,
): Promise<void> {
  if (buffer.entries.length === 0) return;
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS.audit, advisoryKey(schema)]);
  const { rows } = await db.query<{ seq: string | number; hash: string }>(
    'SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1',
  );
  let seq = Number(rows[0]?.seq ?? 0);
  let prevHash = rows[0]?.hash ?? GENESIS_HASH;
  const columns: unknown[][] = [[], [], [], [], [], [], []];
  for (const entry of buffer.entries) {
    seq += 1;
    const hash = auditEntryHash(prevHash, { seq, ...entry });
    const values = [
      seq,
      entry.at,
      entry.action,
      entry.memoryId,
      canonicalJson(entry.detail),
      prevHash,
      hash,
    ];
    values.forEach((value, i) => columns[i]?.push(value));
    prevHash = hash;
  }
  await db.query(
    `INSERT INTO audit_log (seq, at, action, memory_id, detail, prev_hash, hash)
     SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
    columns,
  );
  buffer.entries.length = 0;
}

interface PgAuditRow {
  seq: string | number;
  at: Date | string;
  action: string;
  memory_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}

function stored(row: PgAuditRow): StoredAuditRow {
  return {
    seq: Number(row.seq),
    at: isoOf(row.at),
    action: row.action,
    memoryId: row.memory_id,
    detail: row.detail,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

export async function auditTrailOf(db: PgQueryable, id: MemoryId): Promise<AuditEntry[]> {
  const { rows } = await db.query<PgAuditRow>(
    'SELECT * FROM audit_log WHERE memory_id = $1 ORDER BY seq',
    [id],
  );
  return rows.map((row) => toAuditEntry(stored(row)));
}

/** Audit page after `afterSeq`, oldest first (export, copying a store). */
export async function auditPage(
  db: PgQueryable,
  afterSeq: number,
  limit: number,
): Promise<StoredAuditRow[]> {
  const { rows } = await db.query<PgAuditRow>(
    'SELECT * FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2',
    [afterSeq, limit],
  );
  return rows.map(stored);
}

/** Recomputes the chain page by page; the seq of the first entry that does not verify, or null. */
export async function verifyAuditChain(db: PgQueryable): Promise<number | null> {
  const PAGE = 5000;
  let after = 0;
  let prev: StoredAuditRow | undefined;
  for (;;) {
    const page = await auditPage(db, after, PAGE);
    // Each page is checked together with the last row of the one before, so the link between pages is too.
    const rows = prev === undefined ? page : [prev, ...page];
    const broken = firstBrokenAuditEntry(rows, prev?.prevHash);
    if (broken !== null) return broken;
    if (page.length < PAGE) return null;
    prev = page.at(-1);
    after = prev?.seq ?? after;
  }
}
