/**
 * The hook boundary (architecture §2.4, §2.8): the one place a Claude Code hook touches the process. It
 * reads stdin under a byte cap, parses JSON under a depth limit, validates with a tolerant schema, opens
 * the app, runs a thin handler under an internal deadline, prints only what the handler deliberately
 * returns, and turns every failure into a log line and exit 0. Memory is advisory: a hook never blocks
 * the session (exit 2 would), never prints an error to stdout, and never loads an embedding model.
 *
 * Handlers are `(input, app) => Promise<{ stdout?: string }>` and have no `process` access.
 *
 * A spec with a `spool` fallback (the capture hooks) never loses its event to a busy store: when opening
 * or handling fails with STORE_BUSY or STORE_UNAVAILABLE, when too little time is left to start a write,
 * or when the deadline passes during open or handle, the validated input goes to the durable spool
 * (src/spool) and the resident engine applies it later through the same write path.
 */
import { join } from 'node:path';

import * as v from 'valibot';

import type { App } from '../app/open-app.js';
import { type Config, loadConfig } from '../config/config.js';
import { resolveMnemoHome } from '../config/home.js';
import { isMemoryError } from '../core/errors.js';
import { parseBoundedJson } from '../core/text/bounded-json.js';
import { createLogger, type Logger } from '../log/log.js';
import { takeHookHandover } from './hook-handover.js';
import { describeIssues } from './hook-input.js';
import {
  HANDOFF_MARGIN_MS,
  HOOK_DEADLINE_MS,
  HOOK_MAX_INPUT_BYTES,
  HOOK_MAX_JSON_DEPTH,
  hookDeadlineFromEnv,
} from './hook-limits.js';
import { type CappedBytes, readCapped, readStdinDirect } from './read-capped.js';
import {
  deadlineTooClose,
  outOfReach,
  spoolAndLog,
  type SpoolContext,
  type SpoolOutcome,
  type SpoolTrigger,
  startEngineInBackground,
} from './spool-fallback.js';

/** What a handler returns: text for stdout (context on SessionStart/UserPromptSubmit), or nothing. */
export interface HookResult {
  stdout?: string;
}

/** One hook: its payload schema and its handler. */
export interface HookSpec<T> {
  /** The subcommand name, for logs (`post-tool-use`). */
  readonly name: string;
  readonly schema: v.GenericSchema<unknown, T>;
  readonly handle: (input: T, app: App) => Promise<HookResult>;
  /**
   * Called with the app when a parsed payload failed validation, for fail-closed side effects (a refused
   * tool result still taints its session). Receives the raw object; must not trust it.
   */
  readonly onRefused?: (raw: Record<string, unknown>, app: App) => Promise<void>;
  /**
   * Writes a valid input to the durable spool when the store is out of reach in time. Synchronous (it
   * may run at the deadline), without the app; it must redact before anything touches the disk.
   */
  readonly spool?: (input: T, ctx: SpoolContext) => SpoolOutcome;
  /** The same for a refused payload (`onRefused`'s fail-closed effects, replayed by the drain). */
  readonly spoolRefused?: (raw: Record<string, unknown>, ctx: SpoolContext) => SpoolOutcome;
  /**
   * Tried with a valid input before the store is opened, with the config and log only and the time left
   * before the deadline: `handled` when the event needed no store here (the engine took it, or it asks for
   * no more than a tally), `{ stdout }` when the engine answered it with this output, `spool` when a
   * hand-off to the engine went unanswered (the input goes to the spool), `spool_for_engine` when no engine
   * runs and the one this hook starts will drain the spool (the input goes there), `open` to open the app and call
   * `handle` as usual.
   */
  readonly withoutStore?: (input: T, ctx: SpoolContext, remainingMs: number) => Promise<Storeless>;
}

/** What {@link HookSpec.withoutStore} did; `{ stdout }`: handled, and this is the hook's output. */
export type Storeless =
  | 'handled'
  | 'spool'
  | 'spool_for_engine'
  | 'open'
  | { readonly stdout: string };

/** The process seams, each with a production default. */
export interface RunHookOptions {
  stdin?: AsyncIterable<Uint8Array | string>;
  stdout?: { write(text: string): unknown };
  env?: NodeJS.ProcessEnv;
  /** Records the exit code; always called with 0. */
  setExitCode?: (code: number) => void;
  /** Ends the process at the deadline, when a handler is still waiting on I/O. */
  exit?: (code: number) => void;
  /** Opens the app for a resolved config. Default: the composition root, with a hook-sized busy timeout. */
  openApp?: (config: Config, log: Logger) => Promise<App>;
  deadlineMs?: number;
  /** Milliseconds clock for the time left before the deadline. Default `Date.now`. */
  now?: () => number;
  /**
   * Starts the engine in the background, once per run, after the hook found none (it spooled, or opened
   * the store itself). Default: `startEngineInBackground` (honours `engine.autoStart`).
   */
  startEngine?: (config: Config, log: Logger) => Promise<void>;
  maxInputBytes?: number;
  maxDepth?: number;
  /** The payload, already read (or being read) by the forwarding client; default: read stdin here. */
  input?: Promise<CappedBytes>;
  /**
   * What the forwarding client found (forward-hook.ts): `skip`, the engine must not be asked (none runs,
   * or it declined this hook); `unanswered`, it was sent this hook and gave no answer, so a capture goes
   * straight to the spool. Default: the engine is asked as usual.
   */
  engine?: 'skip' | 'unanswered';
}

/**
 * SQLite busy wait inside a hook. better-sqlite3 waits synchronously, so the deadline timer cannot fire
 * during the wait; keeping it below the deadline keeps the deadline honest.
 */
export const HOOK_BUSY_TIMEOUT_MS = 1000;
/**
 * The busy wait of a hook that can spool: it has somewhere to put the event, so it waits only about as
 * long as a burst of concurrent hook writes takes (each a few ms) before spooling instead.
 */
export const SPOOLING_HOOK_BUSY_TIMEOUT_MS = 250;

type Stage = 'read' | 'parse' | 'validate' | 'open' | 'handle' | 'write' | 'close';

async function defaultOpenApp(config: Config, log: Logger): Promise<App> {
  const { openApp } = await import('../app/open-app.js');
  const busyTimeoutMs = Math.min(config.busyTimeoutMs, HOOK_BUSY_TIMEOUT_MS);
  // A one-off index rebuild after an upgrade can take seconds on a large store: the engine or a command
  // does it, the hook spools or injects nothing meanwhile (STORE_BUSY).
  return openApp({ config: { ...config, busyTimeoutMs }, log, deferLongRebuild: true });
}

function hookLogger(env: NodeJS.ProcessEnv): { log: Logger; config?: Config } {
  const clock = { now: () => new Date() };
  try {
    const config = loadConfig({ env });
    return { config, log: createLogger({ file: config.logFile, level: config.logLevel, clock }) };
  } catch {
    // A broken config must still leave a trace where the user looks: the default log location.
    const home = resolveMnemoHome(env);
    return { log: createLogger({ file: join(home, 'logs', 'mnemo.log'), level: 'info', clock }) };
  }
}

/**
 * Logs a hook subcommand mnemo does not implement (a settings file newer or older than the binary) and
 * returns exit code 0: a misconfigured hook must not disturb the session either.
 */
export function reportUnknownHook(name: string, env: NodeJS.ProcessEnv = process.env): number {
  hookLogger(env).log.warn('unknown hook subcommand; ignored', { hook: name.slice(0, 64) });
  return 0;
}

/**
 * The session id of a payload that could not be parsed, read only when it is the object's first key, as
 * Claude Code writes it (integration reference §7). Anchored at the start of the text, so nothing inside
 * a tool response can put a session id there.
 */
export function leadingSessionId(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 1024).toString('utf8');
  return /^\s*\{\s*"session_id"\s*:\s*"([A-Za-z0-9_.:-]{1,256})"/.exec(head)?.[1];
}

function errorFields(error: unknown): Record<string, unknown> {
  if (isMemoryError(error)) return { code: error.code, error: error.message.slice(0, 500) };
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { code: 'INTERNAL', error: stack.slice(0, 2000) };
}

/** `options` completed with what the forwarding client of this process handed over, if anything. */
function withHandover(options: RunHookOptions): RunHookOptions {
  const handover = takeHookHandover();
  if (handover === undefined) return options;
  // Never less than a spool write needs: a capture the engine left unanswered must still be kept.
  const leftMs = Math.max(HANDOFF_MARGIN_MS, handover.deadlineAt - Date.now());
  return {
    ...options,
    input: options.input ?? handover.input,
    engine: options.engine ?? handover.engine,
    // The executable's choice for this process's hook (a client's output, renamed or dropped) wins.
    ...(handover.stdout === undefined ? {} : { stdout: handover.stdout }),
    deadlineMs: options.deadlineMs ?? leftMs,
  };
}

/**
 * Runs one hook invocation. Resolves to the exit code, which is always 0; never throws. At the deadline
 * it logs what was lost and calls `exit(0)`, because a handler still waiting on I/O would keep the
 * process (and the user's session) waiting.
 */
export async function runHook<T>(spec: HookSpec<T>, given: RunHookOptions = {}): Promise<number> {
  const options = withHandover(given);
  const env = options.env ?? process.env;
  const setExitCode =
    options.setExitCode ??
    ((code: number) => {
      process.exitCode = code;
    });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const deadlineMs = options.deadlineMs ?? hookDeadlineFromEnv(env) ?? HOOK_DEADLINE_MS;
  const now = options.now ?? Date.now;
  const startedAt = now();
  let stage: Stage = 'read';
  let log: Logger | undefined;
  // What the spool fallback would write, once known; spooling is attempted at most once.
  let pending: { input: T } | { raw: Record<string, unknown> } | undefined;
  let spoolCtx: SpoolContext | undefined;
  let spoolTried = false;
  let engineStartTried = false;
  const startEngine = async (config: Config, logger: Logger): Promise<void> => {
    if (engineStartTried) return;
    engineStartTried = true;
    await (options.startEngine ?? startEngineInBackground)(config, logger);
  };

  /** Spools `pending` when the spec can; true when the event is accounted for (spooled or refused). */
  const spoolNow = (trigger: SpoolTrigger): boolean => {
    const event = pending;
    const ctx = spoolCtx;
    if (spoolTried || event === undefined || ctx === undefined) return false;
    const { spool, spoolRefused } = spec;
    let run: (() => SpoolOutcome) | undefined;
    if ('input' in event) {
      if (spool !== undefined) run = () => spool(event.input, ctx);
    } else if (spoolRefused !== undefined) {
      run = () => spoolRefused(event.raw, ctx);
    }
    if (run === undefined) return false;
    spoolTried = true;
    return spoolAndLog(spec.name, trigger, ctx.log, run, () => now() - startedAt);
  };
  /** Spools after `error` when it means the store is out of reach; then starts the engine to drain it. */
  const fallBack = async (error: unknown, config: Config, logger: Logger): Promise<boolean> => {
    const trigger = outOfReach(error);
    if (trigger === undefined || !spoolNow(trigger)) return false;
    logger.debug('store out of reach', { hook: spec.name, stage, ...errorFields(error) });
    await startEngine(config, logger);
    return true;
  };
  const canSpool = spec.spool !== undefined || spec.spoolRefused !== undefined;
  const busyTimeoutOf = (config: Config): number =>
    Math.min(config.busyTimeoutMs, canSpool ? SPOOLING_HOOK_BUSY_TIMEOUT_MS : HOOK_BUSY_TIMEOUT_MS);
  const openFor = (config: Config, logger: Logger): Promise<App> =>
    (options.openApp ?? defaultOpenApp)(
      { ...config, busyTimeoutMs: busyTimeoutOf(config) },
      logger,
    );

  const work = async (): Promise<void> => {
    const maxBytes = options.maxInputBytes ?? HOOK_MAX_INPUT_BYTES;
    const input =
      options.input !== undefined
        ? await options.input
        : options.stdin === undefined
          ? ((await readStdinDirect(maxBytes)) ?? (await readCapped(process.stdin, maxBytes)))
          : await readCapped(options.stdin, maxBytes);
    const resolved = hookLogger(env);
    log = resolved.log;
    const askEngine = options.engine === undefined;
    if (resolved.config !== undefined) spoolCtx = { config: resolved.config, log, askEngine };
    if (options.engine === 'unanswered') {
      log.warn('the engine did not answer a forwarded hook; the hook handles it itself', {
        hook: spec.name,
      });
    }
    if (resolved.config === undefined) {
      log.error('hook skipped: the config could not be loaded (run any mnemo command to see why)', {
        hook: spec.name,
      });
      return;
    }
    if (input.truncated) {
      log.warn('hook payload over the size cap; truncated and refused', {
        hook: spec.name,
        bytesSeen: input.seen,
        capBytes: input.bytes.length,
      });
    }
    stage = 'parse';
    const parsed = parseBoundedJson(
      input.bytes.toString('utf8'),
      options.maxDepth ?? HOOK_MAX_JSON_DEPTH,
    );
    if (!parsed.ok) {
      log.warn('hook payload refused', {
        hook: spec.name,
        reason: parsed.reason,
        bytes: input.seen,
      });
      if (spec.onRefused === undefined || parsed.reason === 'empty') return;
      // Fail closed on what we could not parse: the refusal is counted and, when the envelope's leading
      // session id is readable, its session is tainted like any other refused tool result.
      const sessionId = leadingSessionId(input.bytes);
      pending = { raw: sessionId === undefined ? {} : { session_id: sessionId } };
      if (options.engine === 'unanswered' && spoolNow('engine_unanswered')) return;
      stage = 'open';
      let refusedApp: App;
      try {
        refusedApp = await openFor(resolved.config, log);
      } catch (error) {
        if (await fallBack(error, resolved.config, log)) return;
        throw error;
      }
      const app = refusedApp;
      try {
        stage = 'handle';
        await spec.onRefused(sessionId === undefined ? {} : { session_id: sessionId }, app);
      } catch (error) {
        if (await fallBack(error, resolved.config, log)) return;
        throw error;
      } finally {
        await app.close();
        await startEngine(resolved.config, log);
      }
      return;
    }
    stage = 'validate';
    const valid = v.safeParse(spec.schema, parsed.value);
    if (!valid.success) {
      log.warn('hook payload refused', {
        hook: spec.name,
        reason: 'schema',
        issues: describeIssues(valid.issues),
      });
      if (spec.onRefused === undefined) return;
    }
    pending = valid.success ? { input: valid.output } : { raw: parsed.value };
    // The engine may have stored it or not: the spool's drain merges a duplicate by content hash.
    if (options.engine === 'unanswered' && spoolNow('engine_unanswered')) return;
    if (valid.success && spec.withoutStore !== undefined && spoolCtx !== undefined) {
      stage = 'handle';
      const storeless = await spec.withoutStore(
        valid.output,
        spoolCtx,
        deadlineMs - (now() - startedAt),
      );
      if (storeless === 'handled') return;
      if (typeof storeless === 'object') {
        stage = 'write';
        if (storeless.stdout.length > 0) (options.stdout ?? process.stdout).write(storeless.stdout);
        return;
      }
      if (storeless === 'spool_for_engine' && spoolNow('engine_down')) {
        await startEngine(resolved.config, log);
        return;
      }
      if (storeless === 'spool' && spoolNow('engine_unanswered')) {
        await startEngine(resolved.config, log);
        return;
      }
    }
    stage = 'open';
    let opened: App;
    try {
      opened = await openFor(resolved.config, log);
    } catch (error) {
      if (await fallBack(error, resolved.config, log)) return;
      throw error;
    }
    const app = opened;
    try {
      if (!valid.success) {
        stage = 'handle';
        await spec.onRefused?.(parsed.value, app);
        return;
      }
      if (
        deadlineTooClose(deadlineMs - (now() - startedAt), busyTimeoutOf(resolved.config)) &&
        spoolNow('deadline_near')
      ) {
        await startEngine(resolved.config, log);
        return;
      }
      stage = 'handle';
      const result = await spec.handle(valid.output, app);
      stage = 'write';
      if (result.stdout !== undefined && result.stdout.length > 0) {
        (options.stdout ?? process.stdout).write(result.stdout);
      }
    } catch (error) {
      if (await fallBack(error, resolved.config, log)) return;
      throw error;
    } finally {
      // Keep the stage that failed in the log; only a failing close reports 'close'.
      const reached = stage;
      stage = 'close';
      await app.close();
      stage = reached;
      // This hook found no engine to answer it: start one for the next.
      await startEngine(resolved.config, log);
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolveDeadline) => {
    timer = setTimeout(() => resolveDeadline('deadline'), deadlineMs);
  });
  try {
    const outcome = await Promise.race([work().then(() => 'done' as const), deadline]);
    if (outcome === 'deadline') {
      // Still opening or handling: the store did not answer in time, so the event goes to the spool.
      const reached = stage as Stage;
      const spooled = (reached === 'open' || reached === 'handle') && spoolNow('deadline');
      (log ?? hookLogger(env).log).warn(
        spooled
          ? 'hook deadline passed; the event was spooled for the engine and the hook exited 0'
          : 'hook deadline passed; gave up and exited 0. Anything this event would have captured ' +
              'was not stored',
        { hook: spec.name, stage, deadlineMs },
      );
      setExitCode(0);
      exit(0);
      return 0;
    }
  } catch (error) {
    (log ?? hookLogger(env).log).error('hook failed; exited 0 without output', {
      hook: spec.name,
      stage,
      ...errorFields(error),
    });
  } finally {
    clearTimeout(timer);
  }
  setExitCode(0);
  return 0;
}

/** The exports of a hook's entry module (hooks/entry/<name>.ts): its spec, and a main run on the process. */
export function hookEntry<T>(spec: HookSpec<T>): {
  spec: HookSpec<T>;
  main: () => Promise<number>;
} {
  return { spec, main: () => runHook(spec) };
}
