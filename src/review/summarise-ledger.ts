/**
 * The injection ledger summarised for a person: what proactive injection (session start, prompt recall)
 * pushed into which session, when, at what token cost, per session and per UTC day. Pure; shared by
 * `mnemo ledger` and the web viewer.
 */
import type { InjectionRecord, MemoryStore, WithheldEntry } from '../store/store.js';

/** Ledger rows read at most; past it the report says it is partial. */
export const LEDGER_MAX_ROWS = 10_000;

/** One injection as reported: the ledger row without its session (grouped by session already). */
export interface LedgerEntry {
  seq: number;
  at: string;
  event: string;
  source: string | null;
  memoryIds: string[];
  /** The ids of `memoryIds` shown as a one-line index entry, not in full. */
  indexIds: string[];
  tokens: number;
  /** Candidates this injection withheld, with reasons (a row may withhold without injecting). */
  withheld: WithheldEntry[];
  /** Whose session it was; null for a row recorded before the ledger kept authors. */
  author: string | null;
}

export interface LedgerSession {
  sessionId: string;
  projectKey: string | null;
  /** The author of the session's newest row that records one; null when none does. */
  author: string | null;
  first: string;
  last: string;
  injections: number;
  tokens: number;
  /** Distinct memories injected, first injected first. */
  memoryIds: string[];
  entries: LedgerEntry[];
}

export interface LedgerDay {
  day: string;
  injections: number;
  tokens: number;
  /** Injections per event, e.g. `{ "session-start": 2, "prompt-recall": 5 }`. */
  events: Record<string, number>;
}

/** The report `mnemo ledger --json` prints. */
export interface LedgerReport {
  since: string;
  days: number;
  session: string | null;
  /**
   * The author this ledger was read as (the store shows a reader only its own sessions, see
   * store/ledger-scope.ts); null when read without one.
   */
  reader: string | null;
  /** True when more than {@link LEDGER_MAX_ROWS} rows matched and only the newest were read. */
  partial: boolean;
  /** `injections` counts rows that injected something; `withheld` distinct memories withheld. */
  totals: {
    injections: number;
    tokens: number;
    memories: number;
    sessions: number;
    withheld: number;
  };
  byDay: LedgerDay[];
  sessions: LedgerSession[];
}

/** Groups ledger rows (any order) by UTC day and by session, oldest first. Pure. */
export function summariseLedger(
  records: readonly InjectionRecord[],
  header: {
    since: string;
    days: number;
    session: string | null;
    reader: string | null;
    partial: boolean;
  },
): LedgerReport {
  const rows = [...records].sort((a, b) => a.seq - b.seq);
  const days = new Map<string, LedgerDay>();
  const sessions = new Map<string, LedgerSession>();
  const memories = new Set<string>();
  const withheld = new Set<string>();
  let injections = 0;
  for (const row of rows) {
    const injected = row.memoryIds.length > 0 ? 1 : 0;
    injections += injected;
    for (const w of row.withheld) withheld.add(w.id);
    const day = row.at.slice(0, 10);
    const d = days.get(day) ?? { day, injections: 0, tokens: 0, events: {} };
    d.injections += injected;
    d.tokens += row.tokens;
    if (injected === 1) d.events[row.event] = (d.events[row.event] ?? 0) + 1;
    days.set(day, d);
    const s = sessions.get(row.sessionId) ?? {
      sessionId: row.sessionId,
      projectKey: row.projectKey,
      author: row.author,
      first: row.at,
      last: row.at,
      injections: 0,
      tokens: 0,
      memoryIds: [],
      entries: [],
    };
    s.last = row.at;
    s.author = row.author ?? s.author;
    s.injections += injected;
    s.tokens += row.tokens;
    for (const id of row.memoryIds) {
      if (!s.memoryIds.includes(id)) s.memoryIds.push(id);
      memories.add(id);
    }
    const { seq, at, event, source, memoryIds, indexIds, tokens, author } = row;
    s.entries.push({
      seq,
      at,
      event,
      source,
      memoryIds,
      indexIds,
      tokens,
      withheld: row.withheld,
      author,
    });
    sessions.set(row.sessionId, s);
  }
  const byDay = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  return {
    ...header,
    totals: {
      injections,
      tokens: rows.reduce((sum, row) => sum + row.tokens, 0),
      memories: memories.size,
      sessions: sessions.size,
      withheld: withheld.size,
    },
    byDay,
    sessions: [...sessions.values()],
  };
}

const DAY_MS = 86_400_000;

/**
 * Reads and summarises the ledger of the last `days` UTC days (today included), of one session or all,
 * at most {@link LEDGER_MAX_ROWS} rows (the newest; `partial` says when more matched), optionally only
 * the injections into sessions of one project (`projectKey`; null: sessions with no project). The
 * store scopes the rows to its own author; `reader` names that author in the report.
 */
export async function readLedger(
  store: MemoryStore,
  now: Date,
  options: {
    days: number;
    session: string | null;
    projectKey?: string | null;
    reader?: string | null;
  },
): Promise<LedgerReport> {
  const today = Date.parse(now.toISOString().slice(0, 10));
  const since = new Date(today - (options.days - 1) * DAY_MS).toISOString();
  const rows = await store.listInjections({
    since,
    limit: LEDGER_MAX_ROWS + 1,
    ...(options.session === null ? {} : { sessionId: options.session }),
  });
  const read = rows.slice(0, LEDGER_MAX_ROWS);
  const kept =
    options.projectKey === undefined
      ? read
      : read.filter((r) => r.projectKey === options.projectKey);
  return summariseLedger(kept, {
    since,
    days: options.days,
    session: options.session,
    reader: options.reader ?? null,
    partial: rows.length > LEDGER_MAX_ROWS,
  });
}
