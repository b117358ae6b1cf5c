/**
 * Requests to the running resident engine, for hooks, the MCP server and the CLI: hybrid recall, the
 * capture hand-off and the injection of session-start and prompt-recall hooks, over the engine's socket. Every call is bounded by a timeout and never throws: on
 * any failure (no engine, a stale lock, a wrong token, a slow or malformed answer) the caller does the
 * work itself, e.g. a lexical-only recall straight from the store. Nothing here loads a model, opens
 * the store or starts a process (engine-client.ts does that), so a hook can load it cheaply.
 *
 *   const hits = (await engineRecall(config, request, 300)) ?? (await retrieve({ store, clock }, request));
 *
 * Trust: the engine is found and its token read by engine-endpoint.ts; requests carry the token.
 */
import * as v from 'valibot';

import type { Config } from '../config/config.js';
import type { Logger } from '../log/log.js';
import type { RankedHit } from '../retrieval/retrieve.js';
import type { SpoolEntry } from '../spool/spool-record.js';
import type { MemoryFilter, Scope } from '../store/store.js';
import { findEngine } from './engine-endpoint.js';
import {
  type CaptureResult,
  captureResultSchema,
  type EngineInjectArgs,
  type EngineOp,
  injectResultSchema,
  recallArgsSchema,
  recallResultSchema,
  responseSchema,
} from './engine-protocol.js';
import { ENGINE_PROTOCOL_VERSION, exchangeLine } from './engine-wire.js';

/** Optional extras of every client call. */
export interface EngineClientOptions {
  /** Where to note why a call fell back (debug level; never the token or the query). */
  log?: Logger;
}

/** A recall the engine runs with its embedder: the JSON subset of retrieve()'s request. */
export interface EngineRecallRequest {
  query: string;
  scope: Scope;
  limit: number;
  filters?: Pick<
    MemoryFilter,
    | 'kinds'
    | 'tags'
    | 'origins'
    | 'createdAfter'
    | 'createdBefore'
    | 'includeSuperseded'
    | 'quarantine'
  >;
  mmr?: boolean | { lambda?: number };
  /** As retrieve(): count returned memories as used (`true`, or the top n). Default: no. */
  recordAccess?: boolean | number;
  depth?: number;
}

type Home = Pick<Config, 'home'>;

let nextRequestId = 1;

/** The outcome of one request: its result, or why not and whether the request left this process. */
type CallOutcome = { ok: true; result: unknown } | { ok: false; reason: string; sent: boolean };

/** Sends one request and reads its answer; never throws. The building block of the typed calls below. */
async function call(
  config: Home,
  op: EngineOp,
  args: unknown,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<CallOutcome> {
  const fail = (reason: string, sent: boolean): CallOutcome => {
    options.log?.debug('engine call fell back', { op, reason });
    return { ok: false, reason, sent };
  };
  const engine = findEngine(config.home);
  if (!engine.found) return fail(engine.reason, false);
  const id = nextRequestId++;
  const line = `${JSON.stringify({ v: ENGINE_PROTOCOL_VERSION, id, token: engine.token, op, ...(args === undefined ? {} : { args }) })}\n`;
  const answer = await exchangeLine(engine.holder.socket, line, timeoutMs);
  if ('failure' in answer) return fail(answer.failure, answer.sent);
  const parsed = v.safeParse(responseSchema, answer.json);
  if (!parsed.success || parsed.output.id !== id) return fail('malformed response', true);
  if (!parsed.output.ok) return fail(`engine error ${parsed.output.error.code}`, true);
  return { ok: true, result: parsed.output.result };
}

/** {@link call}'s result, or undefined on any failure or after `timeoutMs`. */
export async function callEngine(
  config: Home,
  op: EngineOp,
  args: unknown,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<unknown> {
  const outcome = await call(config, op, args, timeoutMs, options);
  return outcome.ok ? outcome.result : undefined;
}

/** What {@link handOffCapture} found. */
export type HandOff =
  /** The engine answered: the capture is stored, or spooled by the engine, or refused by its spool. */
  | { status: 'accepted'; outcome: CaptureResult['outcome'] }
  /** Nothing was sent (no engine, a stale lock, no token, connection refused): do the work yourself. */
  | { status: 'unreachable'; reason: string }
  /** Sent, but no valid answer came (the engine died, hung or refused it): it may or may not be stored. */
  | { status: 'unanswered'; reason: string };

/**
 * Hands a tool-result capture to the running engine and waits up to `timeoutMs` for its answer, which
 * comes only once the capture is stored or spooled (engine-capture.ts). On `unanswered` the caller must
 * spool the entry itself: re-applying a capture the engine did store is merged by the content-hash dedupe.
 */
export async function handOffCapture(
  config: Home,
  entry: SpoolEntry,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<HandOff> {
  const outcome = await call(config, 'capture', entry, timeoutMs, options);
  if (!outcome.ok) {
    return outcome.sent
      ? { status: 'unanswered', reason: outcome.reason }
      : { status: 'unreachable', reason: outcome.reason };
  }
  const parsed = v.safeParse(captureResultSchema, outcome.result);
  return parsed.success
    ? { status: 'accepted', outcome: parsed.output.outcome }
    : { status: 'unanswered', reason: 'malformed capture answer' };
}

/**
 * Hybrid recall (lexical + vector + identifier legs) run by the engine with its embedder, as retrieve()
 * would return it. Undefined on any failure or timeout: fall back to `retrieve()` without an embedder.
 * The hits are validated before they are returned; render them with the one renderer as usual.
 */
export async function engineRecall(
  config: Home,
  request: EngineRecallRequest,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<RankedHit[] | undefined> {
  const args = v.safeParse(recallArgsSchema, request);
  if (!args.success) {
    options.log?.debug('engine call fell back', { op: 'recall', reason: 'request not sendable' });
    return undefined;
  }
  const parsed = v.safeParse(
    recallResultSchema,
    await callEngine(config, 'recall', args.output, timeoutMs, options),
  );
  // The schema mirrors RankedHit field for field (engine-protocol.ts), so the types line up.
  return parsed.success ? parsed.output.hits : undefined;
}

/** What {@link engineInject} found: the hook's output, or why the hook must read the store itself. */
export type InjectAnswer =
  | { status: 'answered'; stdout: string | null }
  | { status: 'fallback'; reason: string; sent: boolean };

/**
 * Asks the running engine to answer a session-start or prompt-recall hook (engine-inject.ts) and waits
 * up to `timeoutMs`. `answered` carries exactly what the hook prints; on `fallback` (no engine, an engine
 * without the op, a slow or `late` answer) the hook reads the store itself. Never throws.
 */
export async function engineInject(
  config: Home,
  args: EngineInjectArgs,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<InjectAnswer> {
  const outcome = await call(config, 'inject', args, timeoutMs, options);
  if (!outcome.ok) return { status: 'fallback', reason: outcome.reason, sent: outcome.sent };
  const parsed = v.safeParse(injectResultSchema, outcome.result);
  if (!parsed.success) return { status: 'fallback', reason: 'malformed inject answer', sent: true };
  return 'late' in parsed.output
    ? { status: 'fallback', reason: 'late', sent: true }
    : { status: 'answered', stdout: parsed.output.stdout };
}
