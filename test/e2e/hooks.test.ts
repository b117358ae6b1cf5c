/**
 * The built `mnemo hook …` binary fed recorded Claude Code payloads (test/fixtures/hooks). Every run must
 * exit 0 with exactly empty stdout; the effects are read back from the real SQLite file afterwards.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { resolveAgentTaint } from '../../src/write/resolve-agent-taint.js';
import { allRows, logText, summedCounters } from '../helpers/home-state.js';
import { expectQuietHook, FIXTURE_SESSION, hookFixture } from '../helpers/hook-fixtures.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();

describe('mnemo hook post-tool-use (built binary)', () => {
  it('captures an Edit as a compact local_edit capture', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    const rows = await allRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'capture',
      origin: 'local_edit',
      originTool: 'Edit',
      trustBand: 'medium',
      quarantine: 'none',
      projectKey: t.project,
      sessionId: FIXTURE_SESSION,
      content:
        'Edited src/checkout/cart.ts: - const total = items.reduce((s, i) => s + i.price, 0); / ' +
        '+ const total = items.reduce((s, i) => s + i.price * i.qty, 0); (1→1 lines)',
    });
  });

  it('captures a Write with its path relative to the project', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-write', { cwd: t.project }),
    );
    const rows = await allRows(t);
    expect(rows.map((r) => [r.origin, r.kind, r.content])).toEqual([
      [
        'local_edit',
        'capture',
        'Edited src/db/order-status.ts: wrote 4 lines; first: export function orderStatus(row: OrderRow): OrderStatus {',
      ],
    ]);
  });

  it('stores a WebFetch result as a quarantined network capture with its source address, and taints the session', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    const rows = await allRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      origin: 'network',
      trustBand: 'untrusted',
      quarantine: 'pending',
      kind: 'capture',
      // From the envelope's tool_input.url, for review and purge by page or site.
      sourceUrl: 'https://node-postgres.com/features/queries',
    });
    expect(rows[0]?.content).toMatch(/^Fetched https:\/\/node-postgres\.com\/features\/queries:\n/);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network', toolName: 'WebFetch' });
  });

  it('captures nothing for Read, a plain Bash run or an undeclared MCP tool, and counts each skip', async () => {
    const t = newHome();
    for (const name of ['post-tool-use-read', 'post-tool-use-bash'] as const) {
      await expectQuietHook(t, 'post-tool-use', hookFixture(name, { cwd: t.project }));
    }
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-mcp', { cwd: t.project, sessionId: 'mcp-session' }),
    );
    expect(await allRows(t)).toEqual([]);
    // A Read neither taints nor captures: its skip is tallied without the store; `stats` folds it in.
    expect(readdirSync(join(t.home, 'spool'))).toEqual(['capture.skipped.read_not_captured.tally']);
    expect((await t.run(['stats'])).code).toBe(0);
    expect(readdirSync(join(t.home, 'spool'))).toEqual([]);
    expect(await summedCounters(t)).toMatchObject({
      'capture.skipped.read_not_captured': 1,
      'capture.skipped.no_prior_failure': 1,
      'capture.skipped.undeclared_mcp': 1,
    });
    const taints = await withStore(t.home, async (app) => ({
      // Read and Bash are not taint sources by default; the undeclared MCP tool (unknown) is.
      fixture: await app.store.getSessionTaint(FIXTURE_SESSION),
      mcp: await app.store.getSessionTaint('mcp-session'),
    }));
    expect(taints.fixture.tainted).toBe(false);
    expect(taints.mcp).toMatchObject({ tainted: true, origin: 'unknown' });
  });

  it('records a failing command as an error and its later success in the session as a fix', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use-failure',
      hookFixture('post-tool-use-failure-bash', { cwd: t.project }),
    );
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-bash-pass', { cwd: t.project }),
    );
    // A second success is not a second fix.
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-bash-pass', { cwd: t.project }),
    );
    const rows = await allRows(t);
    expect(rows.map((r) => [r.kind, r.origin, r.content]).sort()).toEqual([
      [
        'error',
        'local_exec',
        'Command failed: npm test -- --grep orders\nExit code 1\n  1 failing\n' +
          '  GET /orders returns 200: error: column "status" does not exist',
      ],
      [
        'fix',
        'local_exec',
        // The fix carries the end of the error it fixed (test/e2e/fix-evidence-hooks.test.ts).
        'fixed: npm test -- --grep orders now passes\nError it fixed (end):\nExit code 1\n  1 failing\n' +
          '  GET /orders returns 200: error: column "status" does not exist',
      ],
    ]);
    expect(
      rows.every((r) => r.tags.length === 1 && /^cmd:[0-9a-f]{16}$/.test(r.tags[0] ?? '')),
    ).toBe(true);
  });

  it('does not turn a success in another session into a fix', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use-failure',
      hookFixture('post-tool-use-failure-bash', { cwd: t.project }),
    );
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-bash-pass', { cwd: t.project, sessionId: 'another-session' }),
    );
    expect((await allRows(t)).map((r) => r.kind)).toEqual(['error']);
  });
});

describe('mnemo hook user-prompt-submit and pre-tool-use (built binary)', () => {
  it('clears the session taint when the user submits a prompt', async () => {
    const t = newHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    await expectQuietHook(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project }),
    );
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint.tainted).toBe(false);
  });

  it('links a remember call to its session so the MCP side reads that session taint', async () => {
    const t = newHome();
    const remember = hookFixture('pre-tool-use-remember', { cwd: t.project });
    const content = (remember['tool_input'] as { content: string }).content;
    await expectQuietHook(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project }),
    );
    await expectQuietHook(t, 'pre-tool-use', remember);
    const clean = await withStore(t.home, (app) => resolveAgentTaint(app.store, content));
    expect(clean).toEqual({ tainted: false, sessionId: FIXTURE_SESSION, reason: 'session_clean' });

    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    await expectQuietHook(t, 'pre-tool-use', remember);
    const tainted = await withStore(t.home, (app) => resolveAgentTaint(app.store, content));
    expect(tainted).toEqual({
      tainted: true,
      sessionId: FIXTURE_SESSION,
      reason: 'session_tainted',
    });
    // The claim was consumed: a second write of the same text has no link and fails closed.
    const again = await withStore(t.home, (app) => resolveAgentTaint(app.store, content));
    expect(again).toEqual({ tainted: true, sessionId: null, reason: 'no_claim' });
  });

  it('records the claim for the plugin spelling of the remember tool', async () => {
    const t = newHome();
    const remember = hookFixture('pre-tool-use-remember', {
      cwd: t.project,
      patch: { tool_name: 'mcp__plugin_mnemo_mnemo__remember' },
    });
    await expectQuietHook(t, 'pre-tool-use', remember);
    const content = (remember['tool_input'] as { content: string }).content;
    const taint = await withStore(t.home, (app) => resolveAgentTaint(app.store, content));
    expect(taint.reason).toBe('session_clean');
  });
});

describe('mnemo hook failing open (built binary)', () => {
  it('exits 0 with empty stdout and logs when the store is corrupt', async () => {
    const t = newHome();
    mkdirSync(t.home, { recursive: true });
    const garbage = Buffer.from('definitely not a sqlite database '.repeat(300));
    writeFileSync(t.dbPath, garbage);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(readFileSync(t.dbPath).equals(garbage)).toBe(true);
    expect(logText(t)).toMatch(/"msg":"hook failed; exited 0 without output".*"stage":"open"/);
  });

  it('exits 0 with empty stdout and logs for garbage, empty, binary and non-object stdin', async () => {
    const t = newHome();
    const inputs: (string | Uint8Array)[] = [
      '{ not json',
      '',
      Buffer.from([0xff, 0xfe, 0, 1, 2]),
      '[1,2]',
    ];
    for (const input of inputs) await expectQuietHook(t, 'post-tool-use', input);
    const log = logText(t);
    for (const reason of ['not_json', 'empty', 'not_an_object']) {
      expect(log).toContain(`"reason":"${reason}"`);
    }
    expect(await allRows(t)).toEqual([]);
  });

  it('refuses deeply nested JSON without parsing it', async () => {
    const t = newHome();
    await expectQuietHook(t, 'post-tool-use', `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(logText(t)).toContain('"reason":"too_deep"');
  });

  it('truncates stdin past the 8 MiB cap, logs it and stores nothing', async () => {
    const t = newHome();
    const payload = hookFixture('post-tool-use-webfetch', {
      cwd: t.project,
      patch: { tool_response: { result: 'x'.repeat(9 * 1024 * 1024) } },
    });
    await expectQuietHook(t, 'post-tool-use', payload);
    expect(logText(t)).toMatch(/over the size cap; truncated and refused/);
    expect(await allRows(t)).toEqual([]);
    // The unparsed tool result still reached the model: its leading session id is tainted.
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });
    expect(await summedCounters(t)).toMatchObject({ 'capture.skipped.invalid_payload': 1 });
  });

  it('refuses a payload that claims force, logs the refused field and stores nothing', async () => {
    const t = newHome();
    const payload = hookFixture('post-tool-use-edit', { cwd: t.project, patch: { force: true } });
    await expectQuietHook(t, 'post-tool-use', payload);
    expect(await allRows(t)).toEqual([]);
    expect(logText(t)).toMatch(/"reason":"schema","issues":\[\{"path":"force","code":"custom"\}\]/);
    // The refused tool result still entered the context: its session is tainted (fail closed).
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });
  });

  it('exits 0 with empty stdout even when the hook command line itself is malformed', async () => {
    const t = newHome();
    for (const args of [
      ['hook'],
      ['hook', 'post-tool-use', 'extra-arg'],
      ['hook', '--bogus-flag'],
    ]) {
      const result = await t.run(args, { input: '{}' });
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({
        args,
        code: 0,
        stdout: '',
      });
    }
  });

  it('ignores an unknown hook subcommand with exit 0 and a log line', async () => {
    const t = newHome();
    await expectQuietHook(t, 'session-teleport', '{}');
    expect(logText(t)).toContain('unknown hook subcommand; ignored');
  });
});
