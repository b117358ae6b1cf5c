/**
 * The forwarding client against a real socket in a real home (test/helpers/fake-engine.ts): what it
 * sends, and how each kind of answer is classified. `not_sent` means the engine did nothing (the hook's
 * full path runs as if none ran); `unanswered` means it may have done the work (a capture goes to the
 * spool). Every outcome but `answered` hands the already-read stdin on.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  errorReply,
  FAKE_ENGINE_TOKEN,
  type FakeAnswer,
  type FakeEngine,
  okReply,
  startFakeEngine,
} from '../../test/helpers/fake-engine.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { MAX_INJECT_OUTPUT_CHARS } from '../engine/engine-wire.js';
import { forwardHook, type ForwardOutcome } from './forward-hook.js';
import type { CappedBytes } from './read-capped.js';

const tempDir = useTempDirs();
const engines: FakeEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop();
});

const PAYLOAD = '{"session_id":"s-1","hook_event_name":"PostToolUse","tool_name":"Edit"}';

function bytes(text: string, truncated = false): CappedBytes {
  const buffer = Buffer.from(text, 'utf8');
  return { bytes: buffer, truncated, seen: buffer.length };
}

async function engineAnswering(
  answer: (request: Record<string, unknown>) => FakeAnswer,
): Promise<{ home: string; engine: FakeEngine }> {
  const home = join(tempDir('mnemo-forward-'), 'home');
  const engine = await startFakeEngine(home, answer);
  engines.push(engine);
  return { home, engine };
}

async function forward(
  home: string,
  options: { input?: CappedBytes; env?: NodeJS.ProcessEnv; remainingMs?: number } = {},
): Promise<{ outcome: ForwardOutcome; reads: number }> {
  let reads = 0;
  const outcome = await forwardHook('post-tool-use', {
    env: { MNEMO_HOME: home, ...options.env },
    remainingMs: options.remainingMs ?? 5000,
    readInput: () => {
      reads += 1;
      return Promise.resolve(options.input ?? bytes(PAYLOAD));
    },
  });
  return { outcome, reads };
}

async function handedOn(outcome: ForwardOutcome): Promise<string | undefined> {
  if (outcome.status === 'answered' || outcome.input === undefined) return undefined;
  return (await outcome.input).bytes.toString('utf8');
}

describe('forwardHook', () => {
  it('sends the payload, home and only mnemo variables with the token, and prints the answer', async () => {
    const { home, engine } = await engineAnswering((r) => okReply(r['id'], { stdout: 'ctx' }));
    const { outcome } = await forward(home, {
      env: { MNEMO_LOG_LEVEL: 'debug', AWS_SECRET_ACCESS_KEY: 'nope', mnemo_lower: 'no' },
    });
    expect(outcome).toEqual({ status: 'answered', stdout: 'ctx' });
    expect(engine.requests).toHaveLength(1);
    const [request] = engine.requests;
    expect(request).toMatchObject({ token: FAKE_ENGINE_TOKEN, op: 'hook' });
    expect(request?.['args']).toMatchObject({
      event: 'post-tool-use',
      payload: PAYLOAD,
      home,
      env: { MNEMO_HOME: home, MNEMO_LOG_LEVEL: 'debug' },
    });
    const env = (request?.['args'] as { env: Record<string, string> }).env;
    expect(Object.keys(env).sort()).toEqual(['MNEMO_HOME', 'MNEMO_LOG_LEVEL']);
    expect(typeof (request?.['args'] as { answerBy: unknown }).answerBy).toBe('number');
  });

  it('prints nothing for an answer without output', async () => {
    const { home } = await engineAnswering((r) => okReply(r['id'], { stdout: null }));
    expect((await forward(home)).outcome).toEqual({ status: 'answered', stdout: '' });
  });

  it('does not read stdin when no engine runs', async () => {
    const home = join(tempDir('mnemo-forward-'), 'home');
    const { outcome, reads } = await forward(home);
    expect(outcome).toMatchObject({ status: 'not_sent', engineUsable: false });
    expect(reads).toBe(0);
  });

  it('hands the stdin on as unanswered when the engine answers garbage', async () => {
    const { home } = await engineAnswering(() => 'this is not json');
    const { outcome } = await forward(home);
    expect(outcome).toMatchObject({ status: 'unanswered' });
    expect(await handedOn(outcome)).toBe(PAYLOAD);
  });

  it('treats a reply to another request, or of another protocol, as unanswered', async () => {
    const wrongId = await engineAnswering(() => okReply(99, { stdout: 'x' }));
    expect((await forward(wrongId.home)).outcome).toMatchObject({ status: 'unanswered' });
    const wrongVersion = await engineAnswering((r) =>
      JSON.stringify({ v: 999, id: r['id'], ok: true, result: { stdout: 'x' } }),
    );
    expect((await forward(wrongVersion.home)).outcome).toMatchObject({ status: 'unanswered' });
  });

  it('treats output over the injection cap as unanswered, never printing it', async () => {
    const { home } = await engineAnswering((r) =>
      okReply(r['id'], { stdout: 'x'.repeat(MAX_INJECT_OUTPUT_CHARS + 1) }),
    );
    expect((await forward(home)).outcome).toMatchObject({ status: 'unanswered' });
  });

  it('hands the stdin on as unanswered when the engine drops the connection mid-call', async () => {
    const { home, engine } = await engineAnswering(() => 'close');
    const { outcome } = await forward(home);
    expect(engine.requests).toHaveLength(1);
    expect(outcome).toMatchObject({ status: 'unanswered' });
    expect(await handedOn(outcome)).toBe(PAYLOAD);
  });

  it('gives up waiting on a hung engine as unanswered', async () => {
    const { home } = await engineAnswering(() => 'hang');
    // The capture wait is bounded by the hook's own hand-off wait, well under this budget.
    const { outcome } = await forward(home, { remainingMs: 5000 });
    expect(outcome).toMatchObject({ status: 'unanswered' });
  });

  it('reports a declined hook and an error raised before any work as not sent', async () => {
    const declined = await engineAnswering((r) => okReply(r['id'], { declined: 'config' }));
    const d = (await forward(declined.home)).outcome;
    expect(d).toMatchObject({
      status: 'not_sent',
      reason: 'declined: config',
      engineUsable: false,
    });
    expect(await handedOn(d)).toBe(PAYLOAD);
    for (const code of ['UNAUTHORIZED', 'TOO_LARGE', 'BAD_REQUEST']) {
      const rejected = await engineAnswering((r) => errorReply(r['id'], code));
      expect((await forward(rejected.home)).outcome).toMatchObject({
        status: 'not_sent',
        engineUsable: false,
      });
    }
    // An older engine without the op: the hook's own capture hand-off may still use it.
    const older = await engineAnswering((r) => errorReply(r['id'], 'UNSUPPORTED'));
    expect((await forward(older.home)).outcome).toMatchObject({
      status: 'not_sent',
      engineUsable: true,
    });
  });

  it('reports an error raised while working as unanswered: the work may be half done', async () => {
    const { home } = await engineAnswering((r) => errorReply(r['id'], 'INTERNAL'));
    expect((await forward(home)).outcome).toMatchObject({ status: 'unanswered' });
  });

  it('reports a late injection as not sent, so the hook answers itself', async () => {
    const { home } = await engineAnswering((r) => okReply(r['id'], { late: true }));
    expect((await forward(home)).outcome).toMatchObject({ status: 'not_sent', reason: 'late' });
  });

  it('sends nothing for a payload over the cap, and leaves the engine usable to the full path', async () => {
    const { home, engine } = await engineAnswering((r) => okReply(r['id'], { stdout: null }));
    const { outcome } = await forward(home, { input: bytes(PAYLOAD, true) });
    expect(outcome).toMatchObject({ status: 'not_sent', engineUsable: true });
    expect(engine.requests).toEqual([]);
    expect(await handedOn(outcome)).toBe(PAYLOAD);
  });

  it('sends nothing when too little of the deadline is left', async () => {
    const { home, engine } = await engineAnswering((r) => okReply(r['id'], { stdout: null }));
    const { outcome } = await forward(home, { remainingMs: 100 });
    expect(outcome).toMatchObject({ status: 'not_sent', engineUsable: true });
    expect(engine.requests).toEqual([]);
  });

  it('sends no token another account could read', async () => {
    const { home, engine } = await engineAnswering((r) => okReply(r['id'], { stdout: null }));
    chmodSync(join(home, 'engine.token'), 0o644);
    const { outcome, reads } = await forward(home);
    expect(outcome).toMatchObject({ status: 'not_sent', engineUsable: false });
    expect(reads).toBe(0);
    expect(engine.requests).toEqual([]);
  });
});
