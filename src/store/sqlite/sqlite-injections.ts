/**
 * The injection ledger of the SQLite store: one row per proactive injection (which memories went into
 * which session, at what token cost). Rows are history: they never touch `memories` (an injection is
 * not a use, so it earns no access and no heat) and are not audited, since no memory changes.
 */
import type { MemoryId } from '../../core/memory.js';
import type { assertInjection } from '../injection-rules.js';
import type { InjectionEvent, InjectionRecord, WithheldEntry } from '../store.js';
import type { SqliteLike } from './sqlite-like.js';
import type { WriteContext } from './sqlite-writes.js';

interface InjectionRow {
  seq: number;
  at: string;
  session_id: string;
  event: string;
  source: string | null;
  project_key: string | null;
  memory_ids: string;
  tokens: number;
  withheld: string;
}

function toRecord(row: InjectionRow): InjectionRecord {
  return {
    seq: row.seq,
    at: row.at,
    sessionId: row.session_id,
    event: row.event as InjectionEvent,
    source: row.source,
    projectKey: row.project_key,
    memoryIds: JSON.parse(row.memory_ids) as MemoryId[],
    tokens: row.tokens,
    withheld: JSON.parse(row.withheld) as WithheldEntry[],
  };
}

/** Appends one ledger row inside the caller's write transaction. */
export function recordInjectionIn(
  ctx: WriteContext,
  entry: ReturnType<typeof assertInjection>,
): InjectionRecord {
  const row = ctx.db
    .prepare(
      `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, tokens,
       withheld) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(
      ctx.at,
      entry.sessionId,
      entry.event,
      entry.source,
      entry.projectKey,
      JSON.stringify(entry.memoryIds),
      entry.tokens,
      JSON.stringify(entry.withheld),
    ) as InjectionRow;
  return toRecord(row);
}

/** Ledger rows matching `query`, newest first. `since` must already be a normalised ISO instant. */
export function listInjectionsFrom(
  db: SqliteLike,
  query: { sessionId?: string; since?: string; limit: number; afterSeq?: number; upToSeq?: number },
): InjectionRecord[] {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (query.afterSeq !== undefined) {
    clauses.push('seq > ?');
    params.push(query.afterSeq);
  }
  if (query.upToSeq !== undefined) {
    clauses.push('seq <= ?');
    params.push(query.upToSeq);
  }
  if (query.sessionId !== undefined) {
    clauses.push('session_id = ?');
    params.push(query.sessionId);
  }
  if (query.since !== undefined) {
    clauses.push('at >= ?');
    params.push(query.since);
  }
  const where = clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
  const rows = db
    .prepare(`SELECT * FROM injections ${where} ORDER BY seq DESC LIMIT ?`)
    .all(...params, Math.floor(query.limit)) as InjectionRow[];
  return rows.map(toRecord);
}

/** Distinct ids injected into one session, in the order they were first injected. */
export function injectedIdsOf(db: SqliteLike, sessionId: string): MemoryId[] {
  return db
    .prepare(
      // seq × 1000 + position orders by (row, position) because a row holds at most 500 ids.
      `SELECT j.value AS id FROM injections i, json_each(i.memory_ids) j
       WHERE i.session_id = ? GROUP BY j.value ORDER BY min(i.seq * 1000 + j.key)`,
    )
    .all(sessionId)
    .map((row) => (row as { id: MemoryId }).id);
}
