/**
 * `mnemo hook --client cursor|gemini <event>` through the built binary, fed the payloads in
 * test/fixtures/clients/hooks (each client's documented envelope). What is checked is state: the rows
 * stored, their origin and tool, the session's taint and the remember claim the MCP side reads, never
 * just an exit code. Origin and taint come from the channel (the event and the tool it names); the
 * hostile text inside a result names a privileged tool and a different event, and must change nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

import type { Memory } from '../../src/core/memory.js';
import { resolveAgentTaint } from '../../src/write/resolve-agent-taint.js';
import {
  clientPayload as payload,
  GEMINI_EDIT_CONTENT,
  GEMINI_SESSION,
  runClientHookBin,
} from '../helpers/client-hook-fixtures.js';
import { sessionTainted } from '../helpers/home-state.js';
import { REPO_ROOT, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();

const CURSOR_SESSION = 'cursor:8c1f2e4a-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const REMEMBERED = 'The cart total multiplies price by quantity.';
const HOSTILE = 'HOSTILE-CLIENT-MARKER';
/** Runs a client hook that must exit 0 and print nothing. */
async function quiet(
  h: TestHome,
  client: string,
  event: string,
  input: Record<string, unknown> | string,
): Promise<void> {
  expect(await runClientHookBin(h, client, event, input)).toEqual({
    code: 0,
    stdout: '',
    stderr: '',
  });
}

function allRows(h: TestHome): Promise<Memory[]> {
  return withStore(h.home, (app) =>
    app.store.listMemories({
      limit: 1000,
      includeSuperseded: true,
      quarantine: ['none', 'pending', 'approved', 'rejected'],
    }),
  );
}

const tainted = sessionTainted;

function claim(h: TestHome, content: string) {
  return withStore(h.home, (app) => resolveAgentTaint(app.store, content));
}

function logText(h: TestHome): string {
  const file = join(h.home, 'logs', 'mnemo.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The MCP server as a client starts it, and one `remember` through it; returns the stored origin. */
async function rememberThroughServer(h: TestHome, content: string): Promise<string | undefined> {
  const env = Object.fromEntries(
    Object.entries(h.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO_ROOT, 'dist', 'cli', 'mnemo.cjs'), 'mcp'],
    env,
    cwd: h.project,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'client-hooks-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'remember', arguments: { content } });
    expect(result.isError).not.toBe(true);
  } finally {
    await client.close();
  }
  return (await allRows(h)).find((m) => m.content === content)?.origin;
}

describe('mnemo hook --client gemini (built binary)', () => {
  it('captures a replace as a local_edit capture of its session', async () => {
    const h = newHome();
    await quiet(h, 'gemini', 'AfterTool', payload(h, 'gemini', 'AfterTool.replace'));
    const rows = await allRows(h);
    expect(rows.map((r) => [r.kind, r.origin, r.originTool, r.sessionId, r.content])).toEqual([
      ['capture', 'local_edit', 'Edit', GEMINI_SESSION, GEMINI_EDIT_CONTENT],
    ]);
    expect(await tainted(h, GEMINI_SESSION)).toBe(false);
  });

  it('captures a failing shell command as an error', async () => {
    const h = newHome();
    await quiet(
      h,
      'gemini',
      'AfterTool',
      payload(h, 'gemini', 'AfterTool.run_shell_command.failure'),
    );
    const rows = await allRows(h);
    expect(rows.map((r) => [r.kind, r.origin, r.originTool])).toEqual([
      ['error', 'local_exec', 'Bash'],
    ]);
    expect(rows[0]?.content).toMatch(/^Command failed: npm test -- cart\nFAIL src\/checkout/);
  });

  it('links a remember to its session: clean after the prompt, tainted after a web fetch whose text claims to be an edit', async () => {
    const h = newHome();
    await quiet(h, 'gemini', 'BeforeAgent', payload(h, 'gemini', 'BeforeAgent'));
    await quiet(h, 'gemini', 'BeforeTool', payload(h, 'gemini', 'BeforeTool.remember'));
    expect(await claim(h, REMEMBERED)).toEqual({
      tainted: false,
      sessionId: GEMINI_SESSION,
      reason: 'session_clean',
    });
    await quiet(h, 'gemini', 'AfterTool', payload(h, 'gemini', 'AfterTool.web_fetch'));
    expect(await tainted(h, GEMINI_SESSION)).toBe(true);
    // The page is stored as what it is, a network capture held for review, whatever its text claims.
    const rows = await allRows(h);
    expect(rows.map((r) => [r.origin, r.originTool, r.trustBand, r.quarantine])).toEqual([
      ['network', 'WebFetch', 'untrusted', 'pending'],
    ]);
    expect(rows[0]?.content).toContain(HOSTILE);
    const taint = await withStore(h.home, (app) => app.store.getSessionTaint(GEMINI_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network', toolName: 'WebFetch' });
    await quiet(h, 'gemini', 'BeforeTool', payload(h, 'gemini', 'BeforeTool.remember'));
    expect(await claim(h, REMEMBERED)).toEqual({
      tainted: true,
      sessionId: GEMINI_SESSION,
      reason: 'session_tainted',
    });
    // The user's next prompt closes the window.
    await quiet(h, 'gemini', 'BeforeAgent', payload(h, 'gemini', 'BeforeAgent'));
    expect(await tainted(h, GEMINI_SESSION)).toBe(false);
  });

  it('the real MCP server stores a remember after a web fetch as agent_tainted, and after a clean turn as agent', async () => {
    const h = newHome();
    await quiet(h, 'gemini', 'BeforeAgent', payload(h, 'gemini', 'BeforeAgent'));
    await quiet(h, 'gemini', 'BeforeTool', payload(h, 'gemini', 'BeforeTool.remember'));
    expect(await rememberThroughServer(h, REMEMBERED)).toBe('agent');
    const second = 'The cart tests run with npm test -- cart.';
    await quiet(h, 'gemini', 'AfterTool', payload(h, 'gemini', 'AfterTool.web_fetch'));
    const claimPayload = payload(h, 'gemini', 'BeforeTool.remember', {
      tool_input: { content: second },
    });
    await quiet(h, 'gemini', 'BeforeTool', claimPayload);
    expect(await rememberThroughServer(h, second)).toBe('agent_tainted');
  });

  it('taints the session for a tool it does not know (fail closed), and for a result carrying a privilege claim', async () => {
    const h = newHome();
    await quiet(h, 'gemini', 'AfterTool', payload(h, 'gemini', 'AfterTool.save_memory'));
    expect(await tainted(h, GEMINI_SESSION)).toBe(true);
    const taint = await withStore(h.home, (app) => app.store.getSessionTaint(GEMINI_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });

    const other = newHome();
    // A forged envelope: an edit that claims a privileged origin. Refused, nothing stored, session tainted.
    await quiet(
      other,
      'gemini',
      'AfterTool',
      payload(other, 'gemini', 'AfterTool.replace', { origin: 'user_deliberate' }),
    );
    expect(await allRows(other)).toEqual([]);
    expect(await tainted(other, GEMINI_SESSION)).toBe(true);
  });

  it('a tool named like a Claude Code tool is not that tool: Gemini names outside the allowlist stay unknown', async () => {
    const h = newHome();
    await quiet(
      h,
      'gemini',
      'AfterTool',
      payload(h, 'gemini', 'AfterTool.replace', { tool_name: 'Edit' }),
    );
    expect(await allRows(h)).toEqual([]);
    expect(await tainted(h, GEMINI_SESSION)).toBe(true);
  });

  it('answers SessionStart with the framed context Gemini CLI reads, named for its event', async () => {
    const h = newHome();
    const remembered = await h.run([
      'remember',
      '--kind',
      'decision',
      'Decision: orders.status stays a Postgres enum; new states need a migration.',
    ]);
    expect(remembered.code, remembered.stderr).toBe(0);
    const result = await runClientHookBin(
      h,
      'gemini',
      'SessionStart',
      payload(h, 'gemini', 'SessionStart'),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain(
      'orders.status stays a Postgres enum',
    );
    expect(out.hookSpecificOutput.additionalContext).toMatch(/mnemo-recall nonce=/);
  });
});

describe('mnemo hook --client cursor (built binary)', () => {
  it('captures an agent edit as a local_edit capture of its conversation', async () => {
    const h = newHome();
    await quiet(h, 'cursor', 'afterFileEdit', payload(h, 'cursor', 'afterFileEdit'));
    const rows = await allRows(h);
    expect(rows.map((r) => [r.kind, r.origin, r.originTool, r.sessionId, r.projectKey])).toEqual([
      ['capture', 'local_edit', 'MultiEdit', CURSOR_SESSION, h.project],
    ]);
    expect(rows[0]?.content).toContain('Edited src/checkout/cart.ts');
  });

  it('links mnemo’s own remember (told by the server command it runs) to the conversation, and a third-party MCP result taints it', async () => {
    const h = newHome();
    await quiet(h, 'cursor', 'beforeSubmitPrompt', payload(h, 'cursor', 'beforeSubmitPrompt'));
    await quiet(
      h,
      'cursor',
      'beforeMCPExecution',
      payload(h, 'cursor', 'beforeMCPExecution.remember'),
    );
    expect(await claim(h, REMEMBERED)).toEqual({
      tainted: false,
      sessionId: CURSOR_SESSION,
      reason: 'session_clean',
    });
    // mnemo's own remember result is an acknowledgement, not content: it does not taint.
    await quiet(
      h,
      'cursor',
      'afterMCPExecution',
      payload(h, 'cursor', 'afterMCPExecution.remember'),
    );
    expect(await tainted(h, CURSOR_SESSION)).toBe(false);
    await quiet(h, 'cursor', 'afterMCPExecution', payload(h, 'cursor', 'afterMCPExecution.fetch'));
    expect(await tainted(h, CURSOR_SESSION)).toBe(true);
    expect((await allRows(h)).filter((r) => r.content.includes(HOSTILE))).toEqual([]);
    await quiet(
      h,
      'cursor',
      'beforeMCPExecution',
      payload(h, 'cursor', 'beforeMCPExecution.remember'),
    );
    expect(await claim(h, REMEMBERED)).toMatchObject({ tainted: true, reason: 'session_tainted' });
    await quiet(h, 'cursor', 'beforeSubmitPrompt', payload(h, 'cursor', 'beforeSubmitPrompt'));
    expect(await tainted(h, CURSOR_SESSION)).toBe(false);
  });

  it('records no claim for a remember whose server it cannot tell (another server’s command, or none)', async () => {
    const h = newHome();
    for (const patch of [{ command: '/usr/local/bin/other-server mcp' }, { command: undefined }]) {
      await quiet(
        h,
        'cursor',
        'beforeMCPExecution',
        payload(h, 'cursor', 'beforeMCPExecution.remember', patch),
      );
      expect(await claim(h, REMEMBERED)).toEqual({
        tainted: true,
        sessionId: null,
        reason: 'no_claim',
      });
    }
    // Named by Cursor's qualified form, the server is known.
    await quiet(
      h,
      'cursor',
      'beforeMCPExecution',
      payload(h, 'cursor', 'beforeMCPExecution.remember', {
        tool_name: 'MCP:mnemo:remember',
        command: undefined,
      }),
    );
    expect(await claim(h, REMEMBERED)).toMatchObject({ sessionId: CURSOR_SESSION });
  });

  it('taints for a read of a third-party file only in strict mode, and never stores its text', async () => {
    const h = newHome();
    await quiet(h, 'cursor', 'beforeReadFile', payload(h, 'cursor', 'beforeReadFile'));
    expect(await tainted(h, CURSOR_SESSION)).toBe(false);
    const strict = newHome();
    mkdirSync(strict.home, { recursive: true });
    writeFileSync(join(strict.home, 'config.json'), JSON.stringify({ taint: { strict: true } }));
    await quiet(strict, 'cursor', 'beforeReadFile', payload(strict, 'cursor', 'beforeReadFile'));
    expect(await tainted(strict, CURSOR_SESSION)).toBe(true);
    expect(await allRows(h)).toEqual([]);
    expect(await allRows(strict)).toEqual([]);
  });

  it('prints nothing for a prompt (Cursor reads no context there) and stores nothing for a passing command', async () => {
    const h = newHome();
    await quiet(h, 'cursor', 'beforeSubmitPrompt', payload(h, 'cursor', 'beforeSubmitPrompt'));
    await quiet(h, 'cursor', 'afterShellExecution', payload(h, 'cursor', 'afterShellExecution'));
    expect(await allRows(h)).toEqual([]);
    expect(await tainted(h, CURSOR_SESSION)).toBe(false);
  });

  it('fails open and closed at once on garbage: exit 0, nothing printed, the conversation tainted when its id is readable', async () => {
    const h = newHome();
    await quiet(
      h,
      'cursor',
      'afterMCPExecution',
      '{"conversation_id":"8c1f2e4a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","tool_name": broken',
    );
    expect(await tainted(h, CURSOR_SESSION)).toBe(true);
    await quiet(h, 'cursor', 'someFutureEvent', payload(h, 'cursor', 'afterFileEdit'));
    await quiet(h, 'vscode', 'afterFileEdit', payload(h, 'cursor', 'afterFileEdit'));
    expect(await allRows(h)).toEqual([]);
    expect(logText(h)).toContain('"hook":"cursor:someFutureEvent"');
    expect(logText(h)).toContain('"hook":"vscode:afterFileEdit"');
  });
});
