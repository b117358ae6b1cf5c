/**
 * The injection ledger of the PostgreSQL store: one row per proactive injection (which memories went
 * into which author's session, at what token cost). Rows are history: they never touch `memories` and
 * are not audited. Reads are scoped to their reader by the rules of store/ledger-scope.ts.
 */
import type { assertInjection } from '../injection-rules.js';
import { ledgerIds, type LedgerReader, withoutHiddenIds } from '../ledger-scope.js';
import { type SessionShown, splitShown } from '../shown-ids.js';
import type { InjectionEvent, InjectionRecord, WithheldEntry } from '../store.js';
import type { PgQueryable } from './pg-like.js';
import { isoOf } from './postgres-rows.js';
import type { PgWriteContext } from './postgres-writes.js';

interface PgInjectionRow {
  seq: string | number;
  at: Date;
  session_id: string;
  event: string;
  source: string | null;
  project_key: string | null;
  memory_ids: string[];
  index_ids: string[];
  tokens: number;
  withheld: string;
  author_user: string | null;
}

function toRecord(row: PgInjectionRow): InjectionRecord {
  return {
    seq: Number(row.seq),
    at: isoOf(row.at),
    sessionId: row.session_id,
    event: row.event as InjectionEvent,
    source: row.source,
    projectKey: row.project_key,
    memoryIds: [...row.memory_ids],
    indexIds: [...row.index_ids],
    tokens: Number(row.tokens),
    withheld: JSON.parse(row.withheld) as WithheldEntry[],
    author: row.author_user,
  };
}

export async function recordInjectionIn(
  ctx: PgWriteContext,
  entry: ReturnType<typeof assertInjection>,
): Promise<InjectionRecord> {
  const { rows } = await ctx.db.query<PgInjectionRow>(
    `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, index_ids, tokens,
       withheld, author_user)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [
      ctx.at,
      entry.sessionId,
      entry.event,
      entry.source,
      entry.projectKey,
      entry.memoryIds,
      entry.indexIds,
      entry.tokens,
      JSON.stringify(entry.withheld),
      ctx.author?.user ?? null,
    ],
  );
  return toRecord(rows[0] as PgInjectionRow);
}

/**
 * The scope of a ledger read as `reader` (store/ledger-scope.ts); undefined reads every row. Whether
 * another author wrote is two index range seeks per table (`< reader`, `> reader`), not a scan.
 */
async function ledgerReaderOf(
  db: PgQueryable,
  reader: string | undefined,
): Promise<LedgerReader | undefined> {
  if (reader === undefined) return undefined;
  const { rows } = await db.query<{ other: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM memories WHERE author_user < $1)
         OR EXISTS (SELECT 1 FROM memories WHERE author_user > $1)
         OR EXISTS (SELECT 1 FROM injections WHERE author_user < $1)
         OR EXISTS (SELECT 1 FROM injections WHERE author_user > $1) AS other`,
    [reader],
  );
  return { user: reader, unauthoredRows: rows[0]?.other === false };
}

async function listInjectionsFrom(
  db: PgQueryable,
  query: { sessionId?: string; since?: string; limit: number },
  reader: LedgerReader | undefined,
): Promise<InjectionRecord[]> {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (reader !== undefined) {
    params.push(reader.user);
    clauses.push(
      reader.unauthoredRows
        ? `(author_user = $${params.length} OR author_user IS NULL)`
        : `author_user = $${params.length}`,
    );
  }
  if (query.sessionId !== undefined) {
    params.push(query.sessionId);
    clauses.push(`session_id = $${params.length}`);
  }
  if (query.since !== undefined) {
    params.push(query.since);
    clauses.push(`at >= $${params.length}`);
  }
  params.push(Math.floor(query.limit));
  const where = clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
  const { rows } = await db.query<PgInjectionRow>(
    `SELECT * FROM injections ${where} ORDER BY seq DESC LIMIT $${params.length}`,
    params,
  );
  const records = rows.map(toRecord);
  if (reader === undefined || records.length === 0) return records;
  const { rows: hidden } = await db.query<{ id: string }>(
    `SELECT id FROM memories WHERE id = ANY($1::text[])
     AND NOT team_visible AND author_user IS NOT NULL AND author_user <> $2`,
    [ledgerIds(records), reader.user],
  );
  return withoutHiddenIds(records, new Set(hidden.map((row) => row.id)));
}

/** Ledger rows matching `query`, newest first, read as `reader` (undefined: every row, whole). */
export async function ledgerRowsOf(
  db: PgQueryable,
  query: { sessionId?: string; since?: string; limit: number },
  reader: string | undefined,
): Promise<InjectionRecord[]> {
  return listInjectionsFrom(db, query, await ledgerReaderOf(db, reader));
}

/**
 * What one session was shown, in full and as index entries only (store/shown-ids.ts): rows of `reader`
 * or of no recorded author (a session is its author's; these ids are never shown).
 */
export async function sessionShownOf(
  db: PgQueryable,
  sessionId: string,
  reader: string | undefined,
): Promise<SessionShown> {
  const scope = reader === undefined ? '' : 'AND (i.author_user = $2 OR i.author_user IS NULL)';
  const { rows } = await db.query<{ id: string; idx: boolean }>(
    `SELECT u.id, u.id = ANY (i.index_ids) AS idx
     FROM injections i, unnest(i.memory_ids) WITH ORDINALITY AS u(id, pos)
     WHERE i.session_id = $1 ${scope} ORDER BY i.seq, u.pos`,
    reader === undefined ? [sessionId] : [sessionId, reader],
  );
  return splitShown(rows.map((row) => ({ id: row.id, index: row.idx })));
}

/** Ledger rows with seq > afterSeq, oldest first, every author's, whole (copying a store). */
export async function injectionPage(
  db: PgQueryable,
  afterSeq: number,
  limit: number,
): Promise<InjectionRecord[]> {
  const { rows } = await db.query<PgInjectionRow>(
    'SELECT * FROM injections WHERE seq > $1 ORDER BY seq LIMIT $2',
    [afterSeq, limit],
  );
  return rows.map(toRecord);
}
