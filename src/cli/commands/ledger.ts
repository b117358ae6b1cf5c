import { basename } from 'node:path';

import type { InjectionRecord, WithheldEntry } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface LedgerCliOptions {
  session?: string;
  json?: boolean;
  /** Days shown, today included (UTC). */
  days: number;
}

/** Ledger rows read at most; past it the report says it is partial. */
export const LEDGER_MAX_ROWS = 10_000;

const DAY_MS = 86_400_000;

/** One injection as reported: the ledger row without its session (grouped by session already). */
export interface LedgerEntry {
  seq: number;
  at: string;
  event: string;
  source: string | null;
  memoryIds: string[];
  tokens: number;
  /** Candidates this injection withheld, with reasons (a row may withhold without injecting). */
  withheld: WithheldEntry[];
}

export interface LedgerSession {
  sessionId: string;
  projectKey: string | null;
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
  header: { since: string; days: number; session: string | null; partial: boolean },
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
      first: row.at,
      last: row.at,
      injections: 0,
      tokens: 0,
      memoryIds: [],
      entries: [],
    };
    s.last = row.at;
    s.injections += injected;
    s.tokens += row.tokens;
    for (const id of row.memoryIds) {
      if (!s.memoryIds.includes(id)) s.memoryIds.push(id);
      memories.add(id);
    }
    const { seq, at, event, source, memoryIds, tokens } = row;
    s.entries.push({ seq, at, event, source, memoryIds, tokens, withheld: row.withheld });
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

/**
 * `mnemo ledger`: what proactive injection (session start, prompt recall) pushed into sessions, with
 * its token cost per session and per day, from the injection ledger. Read-only.
 */
export async function ledger(ctx: CliContext, options: LedgerCliOptions): Promise<void> {
  const app = await ctx.openApp();
  const today = Date.parse(app.clock.now().toISOString().slice(0, 10));
  const since = new Date(today - (options.days - 1) * DAY_MS).toISOString();
  const rows = await app.store.listInjections({
    since,
    limit: LEDGER_MAX_ROWS + 1,
    ...(options.session === undefined ? {} : { sessionId: options.session }),
  });
  const report = summariseLedger(rows.slice(0, LEDGER_MAX_ROWS), {
    since,
    days: options.days,
    session: options.session ?? null,
    partial: rows.length > LEDGER_MAX_ROWS,
  });
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  await writeOut(ctx.io.stdout, formatLedger(report));
}

/** Session ids and sources are host data: no control character reaches the terminal. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- replacing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, '?');
}

function plural(n: number, word: string): string {
  if (n === 1) return `${n} ${word}`;
  return `${n} ${/[^aeiou]y$/u.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`}`;
}

/** The human form of a report. */
export function formatLedger(report: LedgerReport): string {
  const scope = report.session === null ? '' : ` in session ${printable(report.session)}`;
  const head = `Injections${scope} since ${report.since.slice(0, 10)} (${plural(report.days, 'day')})`;
  if (report.totals.injections === 0 && report.totals.withheld === 0) return `${head}: none.\n`;
  const { totals } = report;
  const withheld = totals.withheld === 0 ? '' : `; ${plural(totals.withheld, 'memory')} withheld`;
  const lines = [
    `${head}: ${plural(totals.injections, 'injection')}, ${plural(totals.tokens, 'token')}, ` +
      `${plural(totals.memories, 'memory')} in ${plural(totals.sessions, 'session')}${withheld}` +
      `${report.partial ? ` (only the newest ${LEDGER_MAX_ROWS} rows read)` : ''}.`,
    '',
    'per day:',
    ...report.byDay.map((d) => {
      const events = Object.entries(d.events)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([event, n]) => `${event} ${n}`)
        .join(', ');
      return `  ${d.day}  ${plural(d.injections, 'injection').padEnd(14)}  ${String(d.tokens).padStart(6)} tokens  (${events})`;
    }),
    '',
    'per session:',
  ];
  for (const s of report.sessions) {
    const project = s.projectKey === null ? 'no project' : basename(s.projectKey) || s.projectKey;
    lines.push(
      `  ${printable(s.sessionId)}  ${printable(project)}  ${plural(s.injections, 'injection')}, ${s.tokens} tokens`,
    );
    for (const e of s.entries) {
      const event = printable(e.source === null ? e.event : `${e.event}:${e.source}`);
      const held = e.withheld.map((w) => `${w.id} (${w.reasons.join(', ')})`).join(' ');
      lines.push(
        `    ${e.at.slice(0, 19).replace('T', ' ')}  ${event.padEnd(22)} ${String(e.tokens).padStart(5)} tokens  ${e.memoryIds.join(' ')}${held === '' ? '' : `${e.memoryIds.length === 0 ? '' : '  '}withheld: ${held}`}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
