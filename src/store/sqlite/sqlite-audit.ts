/**
 * The append-only, hash-chained audit log of the SQLite store (threat model S4; the chain itself is
 * store/audit-chain.ts). Each entry is written in the same transaction as the change it records; the
 * write lock of that transaction makes "read last hash, append" atomic.
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
import type { SqliteLike } from './sqlite-like.js';

const ROW_COLUMNS = 'seq, at, action, memory_id AS memoryId, detail, prev_hash AS prevHash, hash';

/** Appends one entry; must run inside the write transaction of the change it records. */
export function appendAudit(
  db: SqliteLike,
  at: string,
  action: string,
  memoryId: MemoryId | null,
  detail: Record<string, unknown>,
): void {
  const last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as
    | { seq: number; hash: string }
    | undefined;
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? GENESIS_HASH;
  const hash = auditEntryHash(prevHash, { seq, at, action, memoryId, detail });
  db.prepare(
    'INSERT INTO audit_log (seq, at, action, memory_id, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(seq, at, action, memoryId, canonicalJson(detail), prevHash, hash);
}

export function auditTrailOf(db: SqliteLike, id: MemoryId): AuditEntry[] {
  const rows = db
    .prepare(`SELECT ${ROW_COLUMNS} FROM audit_log WHERE memory_id = ? ORDER BY seq`)
    .all(id) as StoredAuditRow[];
  return rows.map(toAuditEntry);
}

/** Recomputes the chain; returns the seq of the first entry that does not verify, or null. */
export function verifyAuditChain(db: SqliteLike): number | null {
  const rows = db.prepare(`SELECT ${ROW_COLUMNS} FROM audit_log ORDER BY seq`).all();
  return firstBrokenAuditEntry(rows as StoredAuditRow[]);
}
