/**
 * A memory's audit trail as the viewer's table shows it: each entry's action in words, who made it
 * (the actor a human channel recorded), its details as name/value pairs, and runs of identical entries
 * (a vector stored again by each catch-up with the same model) folded into one row with a count.
 */
import type { AuditEntry } from '../store/store.js';

export interface AuditRow {
  seq: number;
  at: string;
  /** The last entry of a folded run; equal to `at` otherwise. */
  lastAt: string;
  action: string;
  /** The action in words. */
  label: string;
  actor: string | null;
  details: { name: string; value: string }[];
  hash: string;
  /** Identical consecutive entries this row stands for (1: itself only). */
  times: number;
}

const LABELS: Readonly<Record<string, string>> = {
  remember: 'written',
  supersede: 'written as a replacement',
  superseded: 'replaced',
  update: 'edited',
  forget: 'deleted',
  dedupe: 'written again (duplicate)',
  merge: 'merged a near duplicate',
  quarantine: 'review decision',
  cluster: 'held in a fragment cluster',
  'set-vector': 'vector stored',
  reverify: 're-verified',
  import: 'imported',
  rekey: 'project key changed',
};

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function auditRows(entries: readonly AuditEntry[]): AuditRow[] {
  const rows: AuditRow[] = [];
  let previousKey: string | undefined;
  for (const entry of entries) {
    const { actor, ...rest } = entry.detail;
    const key = `${entry.action}\u0000${JSON.stringify(entry.detail)}`;
    const last = rows.at(-1);
    if (last !== undefined && key === previousKey) {
      last.times += 1;
      last.lastAt = entry.at;
      continue;
    }
    previousKey = key;
    rows.push({
      seq: entry.seq,
      at: entry.at,
      lastAt: entry.at,
      action: entry.action,
      label: LABELS[entry.action] ?? entry.action,
      actor: typeof actor === 'string' ? actor : null,
      details: Object.entries(rest).map(([name, value]) => ({ name, value: valueText(value) })),
      hash: entry.hash,
      times: 1,
    });
  }
  return rows;
}
