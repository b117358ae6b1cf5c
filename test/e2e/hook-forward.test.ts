/**
 * The forwarding hook client end to end: the built `mnemo` executable, a real `mnemo serve` (or a stand-in
 * engine for the answers a real one never gives), a real SQLite file. With the engine up a hook sends its
 * stdin over the socket and prints the reply: the hook's bundle is never loaded (no script of it lands in
 * the code cache), and the engine applies the hook's own channel rules (origin, taint, fail-closed
 * refusal). When the engine answers garbage or goes away mid-call the hook still exits 0, prints nothing
 * it should not, and loses nothing: a capture goes to the spool, an injection reads the store itself.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { useEngines } from '../helpers/engine-process.js';
import { type FakeEngine, okReply, useFakeEngines } from '../helpers/fake-engine.js';
import {
  allRows,
  compiledScripts,
  logText,
  spooledFiles,
  summedCounters,
  withHashEmbedder,
} from '../helpers/home-state.js';
import {
  expectQuietHook,
  FIXTURE_SESSION,
  hookFixture,
  runHookBin,
} from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const startFakeEngine = useFakeEngines();

const hashHome = (): TestHome => withHashEmbedder(newHome());

function spoolText(t: TestHome): string {
  return spooledFiles(t)
    .map((name) => readFileSync(join(t.home, 'spool', name), 'utf8'))
    .join('');
}

const DECISION = 'GET /orders returns 500 after the migration: the orders index was dropped.';

// Worded close to the memory: how far a paraphrase is injected is measured by bench:inject, not here.
const PROMPT = 'GET /orders returns 500 after the migration: was the orders index dropped?';

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

describe('forwarded hooks with `mnemo serve` up (built binary)', () => {
  it('stores a forwarded Edit once as a local edit without loading the hook bundle', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    const stored = await allRows(t);
    expect(stored.map((m) => [m.origin, m.kind, m.quarantine])).toEqual([
      ['local_edit', 'capture', 'none'],
    ]);
    expect(compiledScripts(t)).toEqual([]);
    expect(spooledFiles(t)).toEqual([]);
    expect(await summedCounters(t)).toMatchObject({ 'capture.handed_off': 1, 'write.stored': 1 });
  });

  it('injects the framed memory a prompt needs, answered by the engine alone', async () => {
    const t = hashHome();
    await rememberDecision(t);
    await engines.start(t, ['--idle-exit', '0']);
    const result = await runHookBin(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project, patch: { prompt: PROMPT } }),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('orders index was dropped');
    expect(result.stdout).toContain('origin');
    expect(compiledScripts(t)).toEqual([]);
    expect((await pingEngine({ home: t.home }, 5000))?.injections).toBe(1);
  });

  it('keeps the channel rules: a forwarded WebFetch is quarantined and taints its session', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    expect((await allRows(t)).map((m) => [m.origin, m.quarantine])).toEqual([
      ['network', 'pending'],
    ]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network', toolName: 'WebFetch' });
    expect(compiledScripts(t)).toEqual([]);
  });

  it('refuses a payload claiming privilege and still taints its session, as the hook does', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    const claim = hookFixture('post-tool-use-edit', { cwd: t.project, patch: { force: true } });
    await expectQuietHook(t, 'post-tool-use', claim);
    expect(await allRows(t)).toEqual([]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });
    expect(logText(t)).toMatch(/"reason":"schema","issues":\[\{"path":"force","code":"custom"\}\]/);
  });

  it('taints the leading session id of a tool result it cannot parse', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    await expectQuietHook(t, 'post-tool-use', `{"session_id":"${FIXTURE_SESSION}","tool_name":`);
    expect(await allRows(t)).toEqual([]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'unknown' });
  });

  it('declines a hook whose config names another store: the hook handles it on its own store', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    // The hook's store is a PostgreSQL server that is not there: it spools, and the engine's store,
    // which is not the hook's, receives nothing.
    Object.assign(t.env, { MNEMO_DATABASE_URL: 'postgres://127.0.0.1:9/none' });
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    delete t.env['MNEMO_DATABASE_URL'];
    expect(await allRows(t)).toEqual([]);
    expect(spoolText(t)).toContain('src/checkout/cart.ts');
  });

  it('takes the bundle path when forwarding is switched off, and still hands the capture over', async () => {
    const t = hashHome();
    await engines.start(t, ['--idle-exit', '0']);
    Object.assign(t.env, { MNEMO_HOOK_FORWARD: '0' });
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(compiledScripts(t)).toEqual(['post-tool-use.v8cache']);
    expect((await allRows(t)).map((m) => m.origin)).toEqual(['local_edit']);
    expect(await summedCounters(t)).toMatchObject({ 'capture.handed_off': 1 });
  });
});

describe('forwarded hooks with an engine that answers badly (built binary)', () => {
  const garbageEngine = (t: TestHome): Promise<FakeEngine> =>
    startFakeEngine(t.home, () => '{"v":1,"surprise":');

  it('spools a capture the engine answered with garbage: exit 0, nothing printed, nothing lost', async () => {
    const t = hashHome();
    const fake = await garbageEngine(t);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(fake.requests.map((r) => r['op'])).toEqual(['hook']);
    expect(spooledFiles(t)).toHaveLength(1);
    expect(spoolText(t)).toContain('src/checkout/cart.ts');
    expect(logText(t)).toContain('the engine did not answer a forwarded hook');
  });

  it('spools a hostile tool result the engine dropped, and the drain still quarantines and taints', async () => {
    const t = hashHome();
    const fake = await startFakeEngine(t.home, () => 'close');
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );
    expect(spooledFiles(t)).toHaveLength(1);
    await fake.stop();
    const { drainSpool } = await import('../../src/spool/drain-spool.js');
    await withStore(t.home, (app) => drainSpool(app));
    expect((await allRows(t)).map((m) => [m.origin, m.quarantine])).toEqual([
      ['network', 'pending'],
    ]);
    const taint = await withStore(t.home, (app) => app.store.getSessionTaint(FIXTURE_SESSION));
    expect(taint).toMatchObject({ tainted: true, origin: 'network' });
  });

  it('answers a prompt from the store itself when the engine answers garbage', async () => {
    const t = hashHome();
    await rememberDecision(t);
    await garbageEngine(t);
    const result = await runHookBin(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project, patch: { prompt: PROMPT } }),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('orders index was dropped');
    expect(compiledScripts(t)).toContain('user-prompt-submit.v8cache');
  });

  it('prints exactly what a well-formed answer holds', async () => {
    const t = hashHome();
    await startFakeEngine(t.home, (r) => okReply(r['id'], { stdout: 'from engine\n' }));
    const result = await runHookBin(
      t,
      'session-start',
      hookFixture('session-start.startup', { cwd: t.project }),
    );
    expect(result).toEqual({ code: 0, stdout: 'from engine\n', stderr: '' });
    expect(compiledScripts(t)).toEqual([]);
  });
});
