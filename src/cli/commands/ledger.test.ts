import { describe, expect, it } from 'vitest';

import { summariseLedger } from '../../review/summarise-ledger.js';
import type { InjectionRecord } from '../../store/store.js';
import { formatLedger } from './ledger.js';

const ID_A = '01JFX000000000000000000001';
const ID_B = '01JFX000000000000000000002';
const HEADER = {
  since: '2026-08-14T00:00:00.000Z',
  days: 7,
  session: null,
  reader: null,
  partial: false,
};

function row(patch: Partial<InjectionRecord>): InjectionRecord {
  return {
    seq: 1,
    at: '2026-08-19T09:00:00.000Z',
    sessionId: 's1',
    event: 'session-start',
    source: 'startup',
    projectKey: '/p/acme-api',
    memoryIds: [ID_A],
    indexIds: [],
    tokens: 100,
    withheld: [],
    author: null,
    ...patch,
  };
}

describe('summariseLedger', () => {
  it('totals tokens per day and per session, oldest first, whatever the input order', () => {
    const rows = [
      row({
        seq: 3,
        at: '2026-08-20T10:00:00.000Z',
        sessionId: 's2',
        memoryIds: [ID_B],
        tokens: 40,
      }),
      row({ seq: 1 }),
      row({
        seq: 2,
        at: '2026-08-19T09:05:00.000Z',
        event: 'prompt-recall',
        source: null,
        memoryIds: [ID_B, ID_A],
        tokens: 60,
      }),
    ];
    const report = summariseLedger(rows, HEADER);
    expect(report.totals).toEqual({
      injections: 3,
      tokens: 200,
      memories: 2,
      sessions: 2,
      withheld: 0,
    });
    expect(report.byDay).toEqual([
      {
        day: '2026-08-19',
        injections: 2,
        tokens: 160,
        events: { 'session-start': 1, 'prompt-recall': 1 },
      },
      { day: '2026-08-20', injections: 1, tokens: 40, events: { 'session-start': 1 } },
    ]);
    expect(report.sessions.map((s) => [s.sessionId, s.injections, s.tokens, s.memoryIds])).toEqual([
      ['s1', 2, 160, [ID_A, ID_B]],
      ['s2', 1, 40, [ID_B]],
    ]);
    expect(report.sessions[0]).toMatchObject({
      first: '2026-08-19T09:00:00.000Z',
      last: '2026-08-19T09:05:00.000Z',
    });
    expect(report.sessions[0]!.entries.map((e) => e.seq)).toEqual([1, 2]);
  });
});

describe('formatLedger', () => {
  it('prints totals, days and each injection with its event, tokens and ids', () => {
    const text = formatLedger(
      summariseLedger([row({}), row({ seq: 2, memoryIds: [ID_B] })], HEADER),
    );
    expect(text).toContain(
      'Injections since 2026-08-14 (7 days): 2 injections, 200 tokens, 2 memories in 1 session.',
    );
    expect(text).toContain('  2026-08-19  2 injections');
    expect(text).toContain(`session-start:startup    100 tokens  ${ID_A}`);
  });

  it('marks the memories an injection showed as an index line only', () => {
    const text = formatLedger(
      summariseLedger(
        [
          row({
            event: 'prompt-recall',
            source: null,
            memoryIds: [ID_A, ID_B],
            indexIds: [ID_B],
            tokens: 40,
          }),
        ],
        HEADER,
      ),
    );
    expect(text).toContain(`prompt-recall             40 tokens  ${ID_A} ${ID_B} (index line)`);
  });

  it('says none for an empty ledger and keeps control characters of host data off the terminal', () => {
    expect(formatLedger(summariseLedger([], { ...HEADER, days: 1, session: 'x\u001b[2J' }))).toBe(
      'Injections in session x?[2J since 2026-08-14 (1 day): none.\n',
    );
    const text = formatLedger(
      summariseLedger([row({ sessionId: 'evil\u001b]0;title\u0007' })], HEADER),
    );
    expect(text).toContain('evil?]0;title?');
    expect(text.includes('\u001b') || text.includes('\u0007')).toBe(false);
  });

  it('names the reader and marks sessions that are not visibly theirs', () => {
    const report = summariseLedger(
      [
        row({ seq: 1, sessionId: 'old', author: null }),
        row({ seq: 2, sessionId: 'mine', author: 'dana' }),
      ],
      { ...HEADER, reader: 'dana' },
    );
    expect(report.sessions.map((s) => [s.sessionId, s.author])).toEqual([
      ['old', null],
      ['mine', 'dana'],
    ]);
    expect(report.sessions[1]!.entries[0]).toMatchObject({ seq: 2, author: 'dana' });
    const text = formatLedger(report);
    expect(text).toContain('Injections as dana since 2026-08-14 (7 days): 2 injections');
    expect(text).toMatch(
      / {2}old {2}acme-api {2}1 injection, 100 tokens {2}\(author not recorded\)\n/,
    );
    expect(text).toMatch(/ {2}mine {2}acme-api {2}1 injection, 100 tokens\n/);
    expect(formatLedger({ ...report, reader: null })).toContain(
      'mine  acme-api  1 injection, 100 tokens  by dana',
    );
  });
});
