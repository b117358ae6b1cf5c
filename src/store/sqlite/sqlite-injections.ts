/**
 * The injection ledger of the SQLite store: one row per proactive injection (which memories went into
 * which session, at what token cost). Rows are history: they never touch `memories` (an injection is
 * not a use, so it earns no access and no heat) and are not audited, since no memory changes.
 */
import { MemoryError } from '../../core/errors.js';
import { isMemoryId, type MemoryId } from '../../core/memory.js';
import type {
  InjectionEvent,
  InjectionQuery,
  InjectionRecord,
  NewInjection,
  WithheldEntry,
} from '../store.js';
import type { SqliteLike } from './sqlite-like.js';
import type { WriteContext } from './sqlite-writes.js';

/** The events of the port's vocabulary; anything else is refused before it reaches the table. */
const INJECTION_EVENTS: readonly InjectionEvent[] = ['session-start', 'prompt-recall'];

/** Ids per row. A token budget of a few thousand fits a few dozen memories; more is a caller bug. */
export const MAX_INJECTED_IDS = 500;
/** Longest session id, source or project key kept; the hook payload schema bounds them the same way. */
const MAX_TEXT = 4096;

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

function invalid(message: string): MemoryError {
  return new MemoryError('INVALID_INPUT', message);
}

function optionalText(value: unknown, what: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT) {
    throw invalid(`${what} must be null or a string of 1–${MAX_TEXT} characters.`);
  }
  return value;
}

/** Reasons per withheld entry; the gate knows far fewer. */
const MAX_REASONS = 16;

function assertIds(values: unknown): MemoryId[] {
  const ids: MemoryId[] = [];
  for (const id of values as unknown[]) {
    if (typeof id !== 'string' || !isMemoryId(id)) {
      throw invalid(`"${String(id).slice(0, 40)}" is not a memory id (a 26-character ULID).`);
    }
    ids.push(id);
  }
  return ids;
}

function assertWithheld(values: unknown): WithheldEntry[] {
  if (values === undefined) return [];
  if (!Array.isArray(values) || values.length > MAX_INJECTED_IDS) {
    throw invalid(`An injection lists at most ${MAX_INJECTED_IDS} withheld memories.`);
  }
  return values.map((value: unknown) => {
    const entry = value as Partial<WithheldEntry> | null;
    const id = entry?.id;
    if (typeof id !== 'string' || !isMemoryId(id)) {
      throw invalid(`"${String(id).slice(0, 40)}" is not a memory id (a 26-character ULID).`);
    }
    const reasons = entry?.reasons;
    if (
      !Array.isArray(reasons) ||
      reasons.length === 0 ||
      reasons.length > MAX_REASONS ||
      reasons.some((r) => typeof r !== 'string' || r.length === 0 || r.length > 64)
    ) {
      throw invalid(`Withheld memory ${id} needs 1–${MAX_REASONS} short reasons.`);
    }
    return { id, reasons: [...reasons] };
  });
}

/** Validates an injection outside the transaction, so bad input never takes the write lock. */
export function assertInjection(
  entry: NewInjection,
): NewInjection & { memoryIds: MemoryId[]; withheld: WithheldEntry[] } {
  const { sessionId, event, memoryIds, tokens } = entry;
  if (
    typeof sessionId !== 'string' ||
    sessionId.trim().length === 0 ||
    sessionId.length > MAX_TEXT
  ) {
    throw invalid('An injection needs the non-empty session id it was injected into.');
  }
  if (!INJECTION_EVENTS.includes(event)) {
    throw invalid(
      `Unknown injection event "${String(event).slice(0, 40)}"; use one of: ${INJECTION_EVENTS.join(', ')}.`,
    );
  }
  if (!Array.isArray(memoryIds) || memoryIds.length > MAX_INJECTED_IDS) {
    throw invalid(`An injection lists at most ${MAX_INJECTED_IDS} memory ids.`);
  }
  const ids = assertIds(memoryIds);
  const withheld = assertWithheld(entry.withheld);
  if (ids.length === 0 && withheld.length === 0) {
    throw invalid('An injection lists injected or withheld memory ids; record nothing otherwise.');
  }
  if (!Number.isSafeInteger(tokens) || tokens < 0) {
    throw invalid(`An injection's token count must be a whole number >= 0; got ${tokens}.`);
  }
  return {
    sessionId,
    event,
    source: optionalText(entry.source, 'An injection source'),
    projectKey: optionalText(entry.projectKey, 'An injection project key'),
    memoryIds: ids,
    tokens,
    withheld,
  };
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
  query: { sessionId?: string; since?: string; limit: number },
): InjectionRecord[] {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
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

/** Normalises the `since` bound of a ledger query to the stored `toISOString()` shape. */
export function normaliseSince(query: InjectionQuery): string | undefined {
  if (query.since === undefined) return undefined;
  const time = Date.parse(query.since);
  if (Number.isNaN(time)) {
    throw invalid(`since "${String(query.since).slice(0, 40)}" is not an ISO-8601 date or time.`);
  }
  return new Date(time).toISOString();
}
