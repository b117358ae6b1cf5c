import { basename } from 'node:path';

import { processAuthor } from '../../app/open-app.js';
import { LEDGER_MAX_ROWS, type LedgerReport, readLedger } from '../../review/summarise-ledger.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

export interface LedgerCliOptions {
  session?: string;
  json?: boolean;
  /** Days shown, today included (UTC). */
  days: number;
}

/**
 * `mnemo ledger`: what proactive injection (session start, prompt recall) pushed into this author's
 * sessions, with its token cost per session and per day, from the injection ledger. Read-only. The
 * store shows only the reader's own sessions (store/ledger-scope.ts); there is deliberately no flag to
 * read every author's: teammates' session ids and times are theirs, even without their memory ids.
 */
export async function ledger(ctx: CliContext, options: LedgerCliOptions): Promise<void> {
  const app = await ctx.openApp();
  const report = await readLedger(app.store, app.clock.now(), {
    days: options.days,
    session: options.session ?? null,
    reader: processAuthor(app.config).user,
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

/** Who a session was, said only when it is not the reader: a row from before the ledger kept authors. */
function authorNote(report: LedgerReport, author: string | null): string {
  if (author !== null && author === report.reader) return '';
  return author === null ? '  (author not recorded)' : `  by ${printable(author)}`;
}

/** The human form of a report. */
export function formatLedger(report: LedgerReport): string {
  const scope = report.session === null ? '' : ` in session ${printable(report.session)}`;
  const reader = report.reader === null ? '' : ` as ${printable(report.reader)}`;
  const head = `Injections${reader}${scope} since ${report.since.slice(0, 10)} (${plural(report.days, 'day')})`;
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
      `  ${printable(s.sessionId)}  ${printable(project)}  ${plural(s.injections, 'injection')}, ${s.tokens} tokens${authorNote(report, s.author)}`,
    );
    for (const e of s.entries) {
      const event = printable(e.source === null ? e.event : `${e.event}:${e.source}`);
      const held = e.withheld.map((w) => `${w.id} (${w.reasons.join(', ')})`).join(' ');
      const index = new Set(e.indexIds);
      const shown = e.memoryIds.map((id) => (index.has(id) ? `${id} (index line)` : id)).join(' ');
      lines.push(
        `    ${e.at.slice(0, 19).replace('T', ' ')}  ${event.padEnd(22)} ${String(e.tokens).padStart(5)} tokens  ${shown}${held === '' ? '' : `${e.memoryIds.length === 0 ? '' : '  '}withheld: ${held}`}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
