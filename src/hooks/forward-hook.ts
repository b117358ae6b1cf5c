/**
 * The forwarding hook client: with the engine up, a hook process does nothing but read stdin, send it
 * over the engine's socket (`hook`, engine-protocol.ts) and print the answer. No config tree, no store,
 * no git, no schema library: the engine parses, validates and handles the payload exactly as the hook
 * would (hooks/engine-hook.ts). Bundled into the executable itself (cli/bin.ts), so a forwarded hook
 * loads nothing else.
 *
 * Whatever goes wrong, the hook's full path (run-hook.ts) takes over with the stdin already read:
 * - `not_sent`: nothing was done by an engine: none runs, or it declined or rejected the request, or
 *   an injection came `late` (the hook runs itself without asking the engine again); or the request did
 *   not suit a forward (a payload over a request line, no time left: `engineUsable`, the hook's own
 *   path may still hand the engine its capture or ask it for candidates).
 * - `unanswered`: the request left and no valid answer came (the engine died, hung, answered garbage or
 *   failed midway): a capture may or may not be stored, so it goes to the spool (its drain merges a
 *   duplicate by content hash); an injection reads the store itself.
 */
import { resolveMnemoHome } from '../config/home.js';
import { findEngine } from '../engine/engine-endpoint.js';
import {
  ENGINE_PROTOCOL_VERSION,
  exchangeLine,
  FORWARDED_HOOK_EVENTS,
  type ForwardedHookEvent,
  MAX_INJECT_OUTPUT_CHARS,
  MAX_REQUEST_BYTES,
} from '../engine/engine-wire.js';
import {
  DIRECT_RESERVE_MS,
  ENGINE_HANDOFF_WAIT_MS,
  ENGINE_INJECT_WAIT_MS,
  HANDOFF_MARGIN_MS,
  HOOK_MAX_INPUT_BYTES,
} from './hook-limits.js';
import { type CappedBytes, readCapped, readStdinDirect } from './read-capped.js';

/** What a forward did; the full path receives `input` (stdin, read or being read) when there is one. */
export type ForwardOutcome =
  | { status: 'answered'; stdout: string }
  | { status: 'not_sent'; reason: string; engineUsable: boolean; input?: Promise<CappedBytes> }
  | { status: 'unanswered'; reason: string; input: Promise<CappedBytes> };

export interface ForwardOptions {
  env: NodeJS.ProcessEnv;
  /** Milliseconds left before the hook's deadline. */
  remainingMs: number;
  /** Reads the payload. Default: the process's stdin under the hook's byte cap. */
  readInput?: () => Promise<CappedBytes>;
}

/** Errors an engine answers before doing anything: the hook's full path may run as if none ran. */
const REJECTED_BEFORE_WORK = new Set([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'UNSUPPORTED_VERSION',
  'UNSUPPORTED',
  'TOO_LARGE',
]);
/** Only mnemo's own variables go to the engine: its config reads no others. */
const MNEMO_VARIABLE = /^MNEMO_[A-Z0-9_]{1,64}$/;
const MAX_FORWARDED_VARIABLES = 64;
const MAX_VARIABLE_CHARS = 4096;
/** The engine stops working on an injection this long before the hook stops waiting. */
const ANSWER_MARGIN_MS = 100;

export function isForwardedHook(event: string): event is ForwardedHookEvent {
  return (FORWARDED_HOOK_EVENTS as readonly string[]).includes(event);
}

function injects(event: ForwardedHookEvent): boolean {
  return event === 'session-start' || event === 'user-prompt-submit';
}

/** The process's stdin under the hook's byte cap. */
export async function readHookStdin(): Promise<CappedBytes> {
  return (
    (await readStdinDirect(HOOK_MAX_INPUT_BYTES)) ??
    (await readCapped(process.stdin, HOOK_MAX_INPUT_BYTES))
  );
}

/** The `MNEMO_*` variables, or undefined when they do not fit a request (the full path reads them). */
function mnemoVariables(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let count = 0;
  // Names first: reading every value of `process.env` is a call into Node per variable.
  for (const name of Object.keys(env)) {
    if (!MNEMO_VARIABLE.test(name)) continue;
    const value = env[name];
    if (value === undefined) continue;
    if (value.length > MAX_VARIABLE_CHARS || ++count > MAX_FORWARDED_VARIABLES) return undefined;
    out[name] = value;
  }
  return out;
}

/** Resolves to `undefined` after `ms` unless `work` settles first. */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

type Reply =
  | { stdout: string }
  | { notSent: string; engineUsable: boolean }
  | { unanswered: string };

/** Reads the engine's answer line by hand: the schemas are the engine's, this process loads none. */
function readReply(json: unknown, id: number): Reply {
  const reply = json as {
    v?: unknown;
    id?: unknown;
    ok?: unknown;
    result?: { stdout?: unknown; late?: unknown; declined?: unknown } | null;
    error?: { code?: unknown } | null;
  } | null;
  if (reply?.v !== ENGINE_PROTOCOL_VERSION || reply.id !== id) return { unanswered: 'malformed' };
  if (reply.ok === false) {
    const code = typeof reply.error?.code === 'string' ? reply.error.code : 'unknown';
    // An engine without the op (an older one) still takes the hook's own capture hand-off.
    return REJECTED_BEFORE_WORK.has(code)
      ? { notSent: `engine error ${code}`, engineUsable: code === 'UNSUPPORTED' }
      : { unanswered: `engine error ${code}` };
  }
  const result = reply.ok === true ? reply.result : undefined;
  if (typeof result?.declined === 'string')
    return { notSent: `declined: ${result.declined}`, engineUsable: false };
  if (result?.late === true) return { notSent: 'late', engineUsable: false };
  if (result?.stdout === null) return { stdout: '' };
  if (typeof result?.stdout === 'string' && result.stdout.length <= MAX_INJECT_OUTPUT_CHARS)
    return { stdout: result.stdout };
  return { unanswered: 'malformed' };
}

/**
 * Forwards one hook invocation to the running engine of the hook's home. Never throws; reads stdin only
 * once an engine was found.
 */
export async function forwardHook(
  event: ForwardedHookEvent,
  options: ForwardOptions,
): Promise<ForwardOutcome> {
  const home = resolveMnemoHome(options.env);
  const engine = findEngine(home);
  if (!engine.found) return { status: 'not_sent', reason: engine.reason, engineUsable: false };
  const input = (options.readInput ?? readHookStdin)();
  // The full path gets a settled or a failed read alike; the failure is its to log.
  input.catch(() => undefined);
  const started = Date.now();
  const read = await within(
    input.catch(() => undefined),
    options.remainingMs - DIRECT_RESERVE_MS,
  );
  // The engine is fine in these cases; only this request does not suit it.
  const unsuitable = (reason: string): ForwardOutcome => ({
    status: 'not_sent',
    reason,
    engineUsable: true,
    input,
  });
  if (read === undefined) return unsuitable('stdin not read in time');
  if (read.truncated) return unsuitable('payload over the cap');
  const env = mnemoVariables(options.env);
  if (env === undefined) return unsuitable('environment too large');
  const left = options.remainingMs - (Date.now() - started);
  const waitMs = injects(event)
    ? Math.min(ENGINE_INJECT_WAIT_MS, left - DIRECT_RESERVE_MS)
    : Math.min(ENGINE_HANDOFF_WAIT_MS, left - HANDOFF_MARGIN_MS);
  if (waitMs < 2 * ANSWER_MARGIN_MS) return unsuitable('no time left');
  const id = 1;
  const line = `${JSON.stringify({
    v: ENGINE_PROTOCOL_VERSION,
    id,
    token: engine.token,
    op: 'hook',
    args: {
      event,
      payload: read.bytes.toString('utf8'),
      home,
      env,
      answerBy: Date.now() + waitMs - ANSWER_MARGIN_MS,
    },
  })}\n`;
  if (Buffer.byteLength(line) > MAX_REQUEST_BYTES)
    return unsuitable('payload too large for a request');
  const answer = await exchangeLine(engine.holder.socket, line, waitMs);
  if ('failure' in answer) {
    return answer.sent
      ? { status: 'unanswered', reason: answer.failure, input }
      : { status: 'not_sent', reason: answer.failure, engineUsable: false, input };
  }
  const reply = readReply(answer.json, id);
  if ('stdout' in reply) return { status: 'answered', stdout: reply.stdout };
  if ('notSent' in reply)
    return { status: 'not_sent', reason: reply.notSent, engineUsable: reply.engineUsable, input };
  return { status: 'unanswered', reason: reply.unanswered, input };
}
