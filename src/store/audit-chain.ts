/**
 * The hash chain of the audit log (threat model S4: tamper evidence, not prevention), shared by every
 * backend so a chain written by one verifies with the other's code. Each entry's hash is
 * sha256(previous hash + canonical JSON of the entry).
 */
import { createHash } from 'node:crypto';

import type { AuditEntry } from './store.js';

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted and undefined members dropped: the form that is hashed and stored. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function auditEntryHash(prevHash: string, entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256')
    .update(prevHash + canonicalJson(entry), 'utf8')
    .digest('hex');
}

/** A stored audit row, as both backends keep it (detail as canonical JSON text). */
export interface StoredAuditRow {
  seq: number;
  at: string;
  action: string;
  memoryId: string | null;
  detail: string;
  prevHash: string;
  hash: string;
}

export function toAuditEntry(row: StoredAuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    action: row.action,
    memoryId: row.memoryId,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    hash: row.hash,
  };
}

/**
 * Recomputes a chain given oldest first, starting from `startHash` (the genesis hash for a whole log);
 * returns the seq of the first entry that does not verify, or null.
 */
export function firstBrokenAuditEntry(
  rows: Iterable<StoredAuditRow>,
  startHash = GENESIS_HASH,
): number | null {
  let prev = startHash;
  for (const row of rows) {
    const { hash, ...entry } = toAuditEntry(row);
    if (row.prevHash !== prev || auditEntryHash(prev, entry) !== hash) return row.seq;
    prev = hash;
  }
  return null;
}

/** The detail an audit entry copied from store `source` carries in its new chain. */
export function copiedAuditDetail(source: string, entry: AuditEntry): Record<string, unknown> {
  return { ...entry.detail, copiedFrom: { source, seq: entry.seq, hash: entry.hash } };
}
