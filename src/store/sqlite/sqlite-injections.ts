/**
 * The injection ledger of the SQLite store: one row per proactive injection (which memories went into
 * which author's session, at what token cost). Rows are history: they never touch `memories` (an
 * injection is not a use, so it earns no access and no heat) and are not audited, since no memory
 * changes. Reads are scoped to their reader by the rules of store/ledger-scope.ts.
 */
import type { MemoryId } from '../../core/memory.js';
import type { assertInjection } from '../injection-rules.js';
import { ledgerIds, type LedgerReader, withoutHiddenIds } from '../ledger-scope.js';
import { type SessionShown, splitShown } from '../shown-ids.js';
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
  index_ids: string;
  tokens: number;
  withheld: string;
  author_user: string | null;
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
    indexIds: JSON.parse(row.index_ids) as MemoryId[],
    tokens: row.tokens,
    withheld: JSON.parse(row.withheld) as WithheldEntry[],
    author: row.author_user,
  };
}

/** Appends one ledger row inside the caller's write transaction. */
export function recordInjectionIn(
  ctx: WriteContext,
  entry: ReturnType<typeof assertInjection>,
): InjectionRecord {
  const row = ctx.db
    .prepare(
      `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, index_ids,
       tokens, withheld, author_user) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(
      ctx.at,
      entry.sessionId,
      entry.event,
      entry.source,
      entry.projectKey,
      JSON.stringify(entry.memoryIds),
      JSON.stringify(entry.indexIds),
      entry.tokens,
      JSON.stringify(entry.withheld),
      ctx.author?.user ?? null,
    ) as InjectionRow;
  return toRecord(row);
}

/**
 * The scope of a ledger read as `reader` (store/ledger-scope.ts); undefined reads every row. Whether
 * another author wrote is two index range seeks per table (`< reader`, `> reader`), not a scan.
 */
function ledgerReaderOf(db: SqliteLike, reader: string | undefined): LedgerReader | undefined {
  if (reader === undefined) return undefined;
  const other = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM memories WHERE author_user < ?)
           OR EXISTS (SELECT 1 FROM memories WHERE author_user > ?)
           OR EXISTS (SELECT 1 FROM injections WHERE author_user < ?)
           OR EXISTS (SELECT 1 FROM injections WHERE author_user > ?) AS other`,
    )
    .get(reader, reader, reader, reader) as { other: number };
  return { user: reader, unauthoredRows: other.other === 0 };
}

/** The SQL condition of a scoped read, with its parameters. */
function authorClause(reader: LedgerReader): { sql: string; params: string[] } {
  return reader.unauthoredRows
    ? { sql: '(author_user = ? OR author_user IS NULL)', params: [reader.user] }
    : { sql: 'author_user = ?', params: [reader.user] };
}

/** Ledger rows matching `query`, newest first. `since` must already be a normalised ISO instant. */
export function listInjectionsFrom(
  db: SqliteLike,
  query: { sessionId?: string; since?: string; limit: number; afterSeq?: number; upToSeq?: number },
  reader?: LedgerReader,
): InjectionRecord[] {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (reader !== undefined) {
    const scope = authorClause(reader);
    clauses.push(scope.sql);
    params.push(...scope.params);
  }
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
  const rows = (
    db
      .prepare(`SELECT * FROM injections ${where} ORDER BY seq DESC LIMIT ?`)
      .all(...params, Math.floor(query.limit)) as InjectionRow[]
  ).map(toRecord);
  if (reader === undefined) return rows;
  const hidden = db
    .prepare(
      `SELECT id FROM memories WHERE id IN (SELECT value FROM json_each(?))
       AND team_visible = 0 AND author_user IS NOT NULL AND author_user <> ?`,
    )
    .all(JSON.stringify(ledgerIds(rows)), reader.user)
    .map((row) => (row as { id: string }).id);
  return withoutHiddenIds(rows, new Set(hidden));
}

/** Ledger rows matching `query`, newest first, read as `reader` (undefined: every row, whole). */
export function ledgerRowsOf(
  db: SqliteLike,
  query: { sessionId?: string; since?: string; limit: number },
  reader: string | undefined,
): InjectionRecord[] {
  return listInjectionsFrom(db, query, ledgerReaderOf(db, reader));
}

/**
 * What one session was shown, in full and as index entries only (store/shown-ids.ts): rows of `reader`
 * or of no recorded author (a session is its author's; these ids only keep a session from being sent
 * the same memory twice, they are never shown).
 */
export function sessionShownOf(
  db: SqliteLike,
  sessionId: string,
  reader: string | undefined,
): SessionShown {
  const scope = reader === undefined ? '' : 'AND (i.author_user = ? OR i.author_user IS NULL)';
  const rows = db
    .prepare(
      `SELECT j.value AS id,
         EXISTS (SELECT 1 FROM json_each(i.index_ids) x WHERE x.value = j.value) AS idx
       FROM injections i, json_each(i.memory_ids) j
       WHERE i.session_id = ? ${scope} ORDER BY i.seq, j.key`,
    )
    .all(sessionId, ...(reader === undefined ? [] : [reader])) as { id: MemoryId; idx: number }[];
  return splitShown(rows.map((row) => ({ id: row.id, index: row.idx === 1 })));
}
