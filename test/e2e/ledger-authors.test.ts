/**
 * The injection ledger knows whose session it was, through the built binary: two people (`MNEMO_AUTHOR`)
 * on one store remember, run the recorded SessionStart payload in sessions of their own, and read
 * `mnemo ledger`. The row a real hook writes carries its author; each reader sees only their own
 * sessions, and never the id of the other's private memory. Once with no engine (the hook writes the
 * row) and once answered by a running `mnemo serve`.
 */
import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { HOOK_TEST_ENV, hookFixture } from '../helpers/hook-fixtures.js';
import { idFrom, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { openTestApp } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();

const DANA_SESSION = '11111111-2222-4333-8444-555555555555';
const ERIN_SESSION = '99999999-8888-4777-8666-555555555555';

async function remember(home: TestHome, author: string, args: string[]): Promise<string> {
  // Decisions: what session start injects (plain notes wait for a recall).
  const result = await home.run(['remember', '--kind', 'decision', ...args], {
    env: { MNEMO_AUTHOR: author },
  });
  expect(result.code, result.stderr).toBe(0);
  return idFrom(result.stdout);
}

/** A project decision `author` shares with the team, written through the real store. */
async function shared(home: TestHome, author: string, content: string): Promise<string> {
  const app = await openTestApp(home.home, { env: { MNEMO_AUTHOR: author } });
  try {
    const input = {
      content,
      projectKey: home.project,
      kind: 'decision',
      teamVisible: true,
    } as const;
    return (await app.store.remember({ ...input, origin: 'user' })).memory.id;
  } finally {
    await app.close();
  }
}

async function sessionStart(home: TestHome, author: string, sessionId: string): Promise<string> {
  const result = await home.run(['hook', 'session-start'], {
    input: JSON.stringify(hookFixture('session-start.startup', { cwd: home.project, sessionId })),
    env: { ...HOOK_TEST_ENV, MNEMO_AUTHOR: author },
  });
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The ledger's rows as stored, read past the port: the oracle for what the hook wrote. */
function storedRows(home: TestHome): { session_id: string; author_user: string | null }[] {
  const raw = openRawSqlite(home.dbPath);
  try {
    return raw.prepare('SELECT session_id, author_user FROM injections ORDER BY seq').all() as {
      session_id: string;
      author_user: string | null;
    }[];
  } finally {
    raw.close();
  }
}

interface LedgerJson {
  reader: string | null;
  totals: { sessions: number };
  sessions: {
    sessionId: string;
    author: string | null;
    memoryIds: string[];
    entries: { author: string | null; memoryIds: string[] }[];
  }[];
}

async function ledgerAs(
  home: TestHome,
  author: string,
): Promise<{ json: LedgerJson; raw: string }> {
  const result = await home.run(['ledger', '--json'], { env: { MNEMO_AUTHOR: author } });
  expect(result.code, result.stderr).toBe(0);
  return { json: JSON.parse(result.stdout) as LedgerJson, raw: result.stdout };
}

describe('mnemo ledger with two authors on one store (built binary)', () => {
  it('records the author of each hook-written row and shows each reader only their own sessions', async () => {
    const home = newHome();
    const team = await shared(home, 'dana', 'Deploy with just deploy; the Makefile is gone.');
    const danaPrivate = await remember(home, 'dana', ['--global', 'I like terse commit messages.']);
    const erinPrivate = await remember(home, 'erin', [
      '--global',
      'My scratch notes live in the notes branch.',
    ]);
    const danaContext = await sessionStart(home, 'dana', DANA_SESSION);
    const erinContext = await sessionStart(home, 'erin', ERIN_SESSION);
    // Each session got the team's memory and its author's own private one, never the other's.
    expect(danaContext).toContain(team);
    expect(erinContext).toContain(team);
    expect(danaContext).toContain(danaPrivate);
    expect(danaContext).not.toContain(erinPrivate);
    expect(erinContext).toContain(erinPrivate);
    expect(erinContext).not.toContain(danaPrivate);

    expect(storedRows(home)).toEqual([
      { session_id: DANA_SESSION, author_user: 'dana' },
      { session_id: ERIN_SESSION, author_user: 'erin' },
    ]);

    const dana = await ledgerAs(home, 'dana');
    expect(dana.json.reader).toBe('dana');
    expect(dana.json.sessions.map((s) => [s.sessionId, s.author])).toEqual([
      [DANA_SESSION, 'dana'],
    ]);
    expect([...dana.json.sessions[0]!.memoryIds].sort()).toEqual([team, danaPrivate].sort());
    expect(dana.json.sessions[0]!.entries.map((e) => e.author)).toEqual(['dana']);
    expect(dana.raw).not.toContain(ERIN_SESSION);
    expect(dana.raw).not.toContain(erinPrivate);

    const erin = await ledgerAs(home, 'erin');
    expect(erin.json.sessions.map((s) => [s.sessionId, s.author])).toEqual([
      [ERIN_SESSION, 'erin'],
    ]);
    expect(erin.raw).not.toContain(DANA_SESSION);
    expect(erin.raw).not.toContain(danaPrivate);

    // The same, as text; asking for the other's session by id shows nothing.
    const text = await home.run(['ledger'], { env: { MNEMO_AUTHOR: 'erin' } });
    expect(text.stdout).toMatch(
      /^Injections as erin since \d{4}-\d{2}-\d{2} \(7 days\): 1 injection/,
    );
    expect(text.stdout).toContain(erinPrivate);
    expect(text.stdout).not.toContain(danaPrivate);
    const probe = await home.run(['ledger', '--session', DANA_SESSION], {
      env: { MNEMO_AUTHOR: 'erin' },
    });
    expect(probe.stdout).toMatch(/: none\.\n$/);
    // `explain` reads the ledger as its reader too: the team memory went into both sessions, erin's
    // last, and dana's view of it names only her own.
    const explained = await home.run(['explain', team, '--json'], {
      env: { MNEMO_AUTHOR: 'dana' },
    });
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toContain(DANA_SESSION);
    expect(explained.stdout).not.toContain(ERIN_SESSION);
  });

  it('records the author of a row the engine wrote for the hook', async () => {
    const home = newHome();
    const danaPrivate = await remember(home, 'dana', ['--global', 'I like terse commit messages.']);
    await engines.start(home, ['--idle-exit', '0'], {
      MNEMO_EMBEDDING_MODEL: 'hash',
      MNEMO_AUTHOR: 'dana',
    });
    await waitFor('the engine to embed every memory', async () => {
      const ping = await pingEngine({ home: home.home }, 2000);
      return ping !== undefined && ping.queues.unembedded === 0;
    });
    expect(await sessionStart(home, 'dana', DANA_SESSION)).toContain(danaPrivate);
    expect((await pingEngine({ home: home.home }, 5000))?.injections).toBe(1);
    expect(storedRows(home)).toEqual([{ session_id: DANA_SESSION, author_user: 'dana' }]);
    const dana = await ledgerAs(home, 'dana');
    expect(dana.json.sessions.map((s) => [s.sessionId, s.author])).toEqual([
      [DANA_SESSION, 'dana'],
    ]);
  });
});
