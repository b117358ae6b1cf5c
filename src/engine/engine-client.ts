/**
 * The client of the resident engine, for hooks, the MCP server and the CLI. Every call is bounded by a
 * timeout and resolves to `undefined` on any failure (no engine, a stale lock, a wrong token, a slow or
 * malformed answer): the caller then does the work itself, e.g. a lexical-only recall straight from the
 * store. Nothing here throws, loads a model or opens the store.
 *
 * Typical use in a hook:
 *
 *   const hits = (await engineRecall(config, request, 300)) ?? (await retrieve({ store, clock }, request));
 *   startEngineDetached(config); // warm it for the next event; returns at once
 *
 * Trust: the engine is found through `home/engine.lock` (inside the private home); a socket outside the
 * home must sit in a directory that only this user can use. Requests carry the per-install token.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Config } from '../config/config.js';
import type { Logger } from '../log/log.js';
import type { RankedHit } from '../retrieval/retrieve.js';
import type { MemoryFilter, Scope } from '../store/store.js';
import { type EngineLockRecord, engineProbablyRunning, parseEngineLock } from './engine-lock.js';
import { enginePaths } from './engine-paths.js';
import {
  ENGINE_PROTOCOL_VERSION,
  type EngineOp,
  type EnginePing,
  LineBuffer,
  MAX_RESPONSE_BYTES,
  pingResultSchema,
  recallArgsSchema,
  recallResultSchema,
  responseSchema,
} from './engine-protocol.js';
import { readEngineToken } from './engine-token.js';
import { isPidAlive, readPidLock } from './pid-lock.js';
import { FOREIGN_ANY_BITS, privacyProblem } from './private-fs.js';

export type { EnginePing } from './engine-protocol.js';

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

/** What {@link startEngineDetached} did. */
export type EngineStartResult =
  | { started: true; pid: number | undefined }
  | { started: false; reason: 'running' | 'recently_attempted' | 'no_binary' };

/** Background starts closer together than this are skipped (a burst of hooks starts one engine). */
const START_ATTEMPT_INTERVAL_MS = 10_000;

type Home = Pick<Config, 'home'>;

function socketTrusted(home: string, socket: string): boolean {
  if (socket.startsWith('\\\\.\\pipe\\')) return true;
  if (dirname(socket) === home) return true;
  const dir = lstatSync(dirname(socket), { throwIfNoEntry: false });
  return (
    dir !== undefined &&
    privacyProblem(dir, { kind: 'directory', forbiddenBits: FOREIGN_ANY_BITS }) === undefined
  );
}

/** The live engine's lock record, or undefined (no lock, dead pid, untrusted socket). */
function liveEngine(home: string): EngineLockRecord | undefined {
  const holder = readPidLock(enginePaths(home).lock, parseEngineLock);
  if (holder === undefined || !isPidAlive(holder.pid)) return undefined;
  return socketTrusted(home, holder.socket) ? holder : undefined;
}

let nextRequestId = 1;

/**
 * Sends one request and resolves to its `result`, or undefined on any failure or after `timeoutMs`.
 * The building block of the typed calls below.
 */
async function callEngine(
  config: Home,
  op: EngineOp,
  args: unknown,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<unknown> {
  const fail = (reason: string): undefined => {
    options.log?.debug('engine call fell back', { op, reason });
    return undefined;
  };
  let holder: EngineLockRecord | undefined;
  let token: string | undefined;
  try {
    holder = liveEngine(config.home);
    token = holder === undefined ? undefined : readEngineToken(enginePaths(config.home).token);
  } catch (error) {
    return fail(String(error));
  }
  if (holder === undefined) return fail('no engine');
  if (token === undefined) return fail('no usable token');
  const id = nextRequestId++;
  const line = `${JSON.stringify({ v: ENGINE_PROTOCOL_VERSION, id, token, op, ...(args === undefined ? {} : { args }) })}\n`;
  const answer = await exchange(holder.socket, line, timeoutMs);
  if (typeof answer !== 'object') return fail(answer);
  const parsed = responseSchema.safeParse(answer.json);
  if (!parsed.success || parsed.data.id !== id) return fail('malformed response');
  if (!parsed.data.ok) return fail(`engine error ${parsed.data.error.code}`);
  return parsed.data.result;
}

/** Writes `line`, reads one response line; a string says why it failed. */
function exchange(
  path: string,
  line: string,
  timeoutMs: number,
): Promise<{ json: unknown } | string> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const lines = new LineBuffer(MAX_RESPONSE_BYTES);
    let settled = false;
    const finish = (value: { json: unknown } | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.once('connect', () => socket.write(line));
    socket.on('data', (chunk: Buffer) => {
      const [first] = lines.push(chunk);
      if (lines.overflow) return finish('response too large');
      if (first === undefined) return;
      try {
        finish({ json: JSON.parse(first) });
      } catch {
        finish('response not JSON');
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'socket error'));
    socket.once('close', () => finish('closed'));
  });
}

/** The engine's status (pid, version, uptime, queue sizes), or undefined when none answers in time. */
export async function pingEngine(
  config: Home,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<EnginePing | undefined> {
  const parsed = pingResultSchema.safeParse(
    await callEngine(config, 'ping', undefined, timeoutMs, options),
  );
  return parsed.success ? parsed.data : undefined;
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
  const args = recallArgsSchema.safeParse(request);
  if (!args.success) {
    options.log?.debug('engine call fell back', { op: 'recall', reason: 'request not sendable' });
    return undefined;
  }
  const parsed = recallResultSchema.safeParse(
    await callEngine(config, 'recall', args.data, timeoutMs, options),
  );
  // The schema mirrors RankedHit field for field (engine-protocol.ts), so the types line up.
  return parsed.success ? parsed.data.hits : undefined;
}

/** Asks the engine to drain the spool now; resolves to its drain report, or undefined. */
export function requestEngineDrain(
  config: Home,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<unknown> {
  return callEngine(config, 'drain', undefined, timeoutMs, options);
}

/** Asks the engine to shut down cleanly; true when it acknowledged. */
export async function stopEngine(
  config: Home,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<boolean> {
  return (await callEngine(config, 'stop', undefined, timeoutMs, options)) !== undefined;
}

/** The built `mnemo` entry point beside this module (dist/cli/main.js). */
export function mnemoMainPath(): string {
  return fileURLToPath(new URL('../cli/main.js', import.meta.url));
}

/**
 * Starts `mnemo serve --foreground` as a detached background process (stdio ignored, unref'd) unless an
 * engine is already running or a start was attempted in the last {@link START_ATTEMPT_INTERVAL_MS}
 * (`force` skips that check). Synchronous and quick: it never waits for the engine. A second engine that
 * races this one exits at once on the lock.
 */
export function startEngineDetached(
  config: Home,
  options: EngineClientOptions & { idleExitMs?: number; force?: boolean } = {},
): EngineStartResult {
  const paths = enginePaths(config.home);
  const holder = readPidLock(paths.lock, parseEngineLock);
  if (holder !== undefined && engineProbablyRunning(holder))
    return { started: false, reason: 'running' };
  const last = statSync(paths.starting, { throwIfNoEntry: false });
  if (
    options.force !== true &&
    last !== undefined &&
    Date.now() - last.mtimeMs < START_ATTEMPT_INTERVAL_MS
  ) {
    return { started: false, reason: 'recently_attempted' };
  }
  const main = mnemoMainPath();
  if (!existsSync(main)) return { started: false, reason: 'no_binary' };
  mkdirSync(config.home, { recursive: true, mode: 0o700 });
  writeFileSync(paths.starting, `${process.pid}\n`, { mode: 0o600 });
  const idle = options.idleExitMs === undefined ? [] : ['--idle-exit', `${options.idleExitMs}ms`];
  const child = spawn(process.execPath, [main, 'serve', '--foreground', ...idle], {
    cwd: config.home,
    env: { ...process.env, MNEMO_HOME: config.home },
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.once('error', (error) =>
    options.log?.warn('engine start failed', { error: String(error) }),
  );
  child.unref();
  options.log?.info('engine started in the background', { pid: child.pid });
  return { started: true, pid: child.pid };
}
