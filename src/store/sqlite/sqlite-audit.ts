/**
 * The append-only, hash-chained audit log (threat model S4: tamper evidence, not prevention). Each
 * entry's hash is sha256(previous hash + canonical JSON of the entry), written in the same transaction
 * as the change it records; the write lock of that transaction makes "read last hash, append" atomic.
 */
import { createHash } from 'node:crypto';

import type { MemoryId } from '../../core/memory.js';
import type { AuditEntry } from '../store.js';
import type { SqliteLike } from './sqlite-like.js';

export const GENESIS_HASH = '0'.repeat(64);

interface AuditRow {
  seq: number;
  at: string;
  action: string;
  memory_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function entryHash(prevHash: string, entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256')
    .update(prevHash + canonical(entry), 'utf8')
    .digest('hex');
}

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
  const hash = entryHash(prevHash, { seq, at, action, memoryId, detail });
  db.prepare(
    'INSERT INTO audit_log (seq, at, action, memory_id, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(seq, at, action, memoryId, canonical(detail), prevHash, hash);
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    action: row.action,
    memoryId: row.memory_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    hash: row.hash,
  };
}

export function auditTrailOf(db: SqliteLike, id: MemoryId): AuditEntry[] {
  const rows = db
    .prepare('SELECT * FROM audit_log WHERE memory_id = ? ORDER BY seq')
    .all(id) as AuditRow[];
  return rows.map(toEntry);
}

/** Recomputes the chain; returns the seq of the first entry that does not verify, or null. */
export function verifyAuditChain(db: SqliteLike): number | null {
  let prev = GENESIS_HASH;
  for (const row of db.prepare('SELECT * FROM audit_log ORDER BY seq').all() as AuditRow[]) {
    const { hash, ...entry } = toEntry(row);
    if (row.prev_hash !== prev || entryHash(prev, entry) !== hash) return row.seq;
    prev = hash;
  }
  return null;
}
