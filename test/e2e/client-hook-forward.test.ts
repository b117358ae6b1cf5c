/**
 * Another client's hooks on the executable's fast path: `mnemo hook --client gemini <event>` through the
 * built binary maps the client's payload onto mnemo's hook of the same meaning in the executable, then
 * forwards the mapped envelope to a running engine (a real `mnemo serve`, or a stand-in for the answers
 * a real one never gives) or, with none, runs the mapped hook's bundle, as a Claude Code hook does. What
 * is checked is state: rows, taint, the spool, which scripts the process compiled, what the engine was
 * sent, and what the client reads on stdout.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import {
  clientPayload,
  GEMINI_EDIT_CONTENT,
  GEMINI_SESSION,
  runClientHookBin,
} from '../helpers/client-hook-fixtures.js';
import { useEngines } from '../helpers/engine-process.js';
import { okReply, useFakeEngines } from '../helpers/fake-engine.js';
import {
  allRows,
  compiledScripts,
  logText,
  sessionTainted,
  spooledFiles,
  summedCounters,
  withHashEmbedder,
} from '../helpers/home-state.js';
import { HOOK_TEST_ENV } from '../helpers/hook-fixtures.js';
import { runProcess, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { copyBuiltPackage } from '../helpers/package-copy.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const tempDir = useTempDirs();
const startFakeEngine = useFakeEngines();

const DECISION = 'GET /orders returns 500 after the migration: the orders index was dropped.';

const hashHome = (): TestHome => withHashEmbedder(newHome());

async function quietGemini(
  t: TestHome,
  event: string,
  input: Record<string, unknown> | string,
): Promise<void> {
  expect(await runClientHookBin(t, 'gemini', event, input)).toEqual({
    code: 0,
    stdout: '',
    stderr: '',
  });
}

const tainted = sessionTainted;

/** The decision a prompt worded close to it must receive, in a git project. */
async function rememberDecision(t: TestHome): Promise<void> {
  mkdirSync(join(t.project, '.git'), { recursive: true });
  await withStore(t.home, (app) =>
    app.store.remember({
      content: DECISION,
      projectKey: t.project,
      kind: 'decision',
      origin: 'user',
    }),
  );
}

/** Worded close to the decision: how far a paraphrase is injected is bench:inject's to measure. */
const PROMPT = {
  prompt: 'GET /orders returns 500 after the migration: was the orders index dropped?',
};

/** The context a Gemini CLI prompt hook printed: named for Gemini's event, holding the decision. */
function expectBeforeAgentContext(stdout: string): string {
  const out = JSON.parse(stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  expect(out.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
  expect(out.hookSpecificOutput.additionalContext).toContain('orders index was dropped');
  return out.hookSpecificOutput.additionalContext;
}

const EDIT_ROW = ['capture', 'local_edit', 'Edit', GEMINI_SESSION, GEMINI_EDIT_CONTENT];

async function rowsOf(t: TestHome): Promise<unknown[][]> {
  return (await allRows(t)).map((r) => [r.kind, r.origin, r.originTool, r.sessionId, r.content]);
}

describe('Gemini CLI hooks with `mnemo serve` up (built binary)', () => {
  it('hands an edit to the engine: stored once as its session’s local edit, no hook bundle compiled', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await quietGemini(t, 'AfterTool', clientPayload(t, 'gemini', 'AfterTool.replace'));
    expect(await rowsOf(t)).toEqual([EDIT_ROW]);
    expect(compiledScripts(t)).toEqual([]);
    expect(spooledFiles(t)).toEqual([]);
    expect(await summedCounters(t)).toMatchObject({ 'capture.handed_off': 1, 'write.stored': 1 });
    expect(await tainted(t, GEMINI_SESSION)).toBe(false);
  });

  it('answers a prompt from the engine alone, in the shape Gemini reads, named for its event', async () => {
    const t = hashHome();
    await rememberDecision(t);
    await engines.start(t, ['--idle-exit', '0']);
    const result = await runClientHookBin(
      t,
      'gemini',
      'BeforeAgent',
      clientPayload(t, 'gemini', 'BeforeAgent', PROMPT),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const context = expectBeforeAgentContext(result.stdout);
    expect(context).toMatch(/mnemo-recall nonce=/);
    expect(compiledScripts(t)).toEqual([]);
    expect((await pingEngine({ home: t.home }, 5000))?.injections).toBe(1);
  });

  it('keeps the channel rules: a forged privilege claim is refused and taints, an unknown tool taints', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await quietGemini(
      t,
      'AfterTool',
      clientPayload(t, 'gemini', 'AfterTool.replace', { origin: 'user_deliberate' }),
    );
    expect(await allRows(t)).toEqual([]);
    expect(await tainted(t, GEMINI_SESSION)).toBe(true);

    const other = hashHome();
    await engines.start(other, ['--idle-exit', '0']);
    await quietGemini(other, 'AfterTool', clientPayload(other, 'gemini', 'AfterTool.save_memory'));
    const taint = await withStore(other.home, (app) => app.store.getSessionTaint(GEMINI_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });
    expect(compiledScripts(t)).toEqual([]);
    expect(compiledScripts(other)).toEqual([]);
  });
});

describe('Gemini CLI hooks against a stand-in engine (built binary)', () => {
  it('sends the engine the mapped envelope, never the client’s own, and prints what the client reads', async () => {
    const t = hashHome();
    const context = {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'x' },
    };
    const fake = await startFakeEngine(t.home, (r) =>
      okReply(r['id'], { stdout: `${JSON.stringify(context)}\n` }),
    );
    // A tool call's answer is dropped: Gemini reads no context there.
    await quietGemini(t, 'BeforeTool', clientPayload(t, 'gemini', 'BeforeTool.remember'));
    const start = await runClientHookBin(
      t,
      'gemini',
      'SessionStart',
      clientPayload(t, 'gemini', 'SessionStart'),
    );
    expect(start).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'x' } })}\n`,
      stderr: '',
    });
    const sent = fake.requests.map((r) => {
      const args = r['args'] as { event: string; payload: string };
      return [r['op'], args.event, JSON.parse(args.payload) as Record<string, unknown>];
    });
    expect(sent.map(([op, event]) => [op, event])).toEqual([
      ['hook', 'pre-tool-use'],
      ['hook', 'session-start'],
    ]);
    expect(sent[0]?.[2]).toMatchObject({
      session_id: GEMINI_SESSION,
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__mnemo__remember',
    });
    // Only the mapped fields travel: the client's transcript path and timestamp stay behind.
    expect(sent[0]?.[2]).not.toHaveProperty('transcript_path');
    expect(compiledScripts(t)).toEqual([]);
  });

  it('spools a capture the engine answered with garbage: exit 0, nothing printed, nothing lost', async () => {
    const t = hashHome();
    const fake = await startFakeEngine(t.home, () => '{"v":1,"surprise":');
    await quietGemini(t, 'AfterTool', clientPayload(t, 'gemini', 'AfterTool.replace'));
    expect(fake.requests.map((r) => r['op'])).toEqual(['hook']);
    expect(spooledFiles(t)).toHaveLength(1);
    const spooled = readFileSync(join(t.home, 'spool', spooledFiles(t)[0] ?? ''), 'utf8');
    expect(spooled).toContain('src/checkout/cart.ts');
    expect(spooled).toContain(GEMINI_SESSION);
    expect(logText(t)).toContain('the engine did not answer a forwarded hook');
  });
});

describe('Gemini CLI hooks with no engine (built binary)', () => {
  it('runs an edit from the mapped hook’s bundle and its direct chunk, not the CLI', async () => {
    const t = hashHome();
    await quietGemini(t, 'AfterTool', clientPayload(t, 'gemini', 'AfterTool.replace'));
    expect(await rowsOf(t)).toEqual([EDIT_ROW]);
    expect(compiledScripts(t)).toEqual([
      'post-tool-use.direct.chunk.v8cache',
      'post-tool-use.v8cache',
    ]);
  });

  it('with no usable bundle, the CLI runs the mapped hook on the mapped payload, its output still Gemini’s', async () => {
    const t = hashHome();
    const bin = copyBuiltPackage(join(tempDir('mnemo-pkg-'), 'package'));
    const bundles = join(dirname(bin), '..', 'hook-bundles');
    rmSync(join(bundles, 'post-tool-use.cjs'));
    rmSync(join(bundles, 'user-prompt-submit.cjs'));
    const run = (event: string, input: Record<string, unknown>) =>
      runProcess(process.execPath, [bin, 'hook', '--client', 'gemini', event], {
        input: JSON.stringify(input),
        env: { ...t.env, ...HOOK_TEST_ENV },
        cwd: t.project,
      });
    expect(await run('AfterTool', clientPayload(t, 'gemini', 'AfterTool.replace'))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await rowsOf(t)).toEqual([EDIT_ROW]);
    await rememberDecision(t);
    const prompt = await run('BeforeAgent', clientPayload(t, 'gemini', 'BeforeAgent', PROMPT));
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    // Gemini's event name, not the UserPromptSubmit of the hook that answered.
    expectBeforeAgentContext(prompt.stdout);
    // Neither bundle ran: the CLI did.
    expect(compiledScripts(t)).toEqual([]);
  });

  it('logs an event it does not answer, prints nothing and stores nothing', async () => {
    const t = hashHome();
    await quietGemini(t, 'Notification', { session_id: 'c4d5e6f7', message: 'hello' });
    expect(logText(t)).toContain('unknown hook subcommand');
    expect(logText(t)).toContain('gemini:Notification');
    expect(existsSync(t.dbPath)).toBe(false);
  });
});
