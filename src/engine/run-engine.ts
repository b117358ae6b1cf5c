/**
 * The resident engine (`mnemo serve`): one per `$MNEMO_HOME`, guarded by `home/engine.lock`. It owns the
 * embedder, answers requests on a Unix socket (engine-server.ts), drains the capture spool and fills in
 * missing embeddings on a timer (engine-jobs.ts), exits after a configurable idle time, and on shutdown
 * (SIGTERM/SIGINT via `signal`, a `stop` request, idle, or losing its lock) removes its socket and lock.
 *
 * It also serves the web viewer on 127.0.0.1 unless `ui.withEngine` is off (engine-web.ts).
 *
 * It is the only long-lived process that loads a model; hooks never do (threat model S6).
 */
import { readFileSync, rmSync } from 'node:fs';

import type { App } from '../app/open-app.js';
import type { Config } from '../config/config.js';
import { MemoryError } from '../core/errors.js';
import type { Logger } from '../log/log.js';
import {
  acquirePidLock,
  newLockRecord,
  ownsPidLock,
  releasePidLock,
} from '../platform/pid-lock.js';
import { ensurePrivateDir, FOREIGN_ANY_BITS } from '../platform/private-fs.js';
import type { Embedder } from '../ports/embedder.js';
import type { Reranker } from '../ports/reranker.js';
import { retrieve } from '../retrieval/retrieve.js';
import { spoolPaths, spoolUsage } from '../spool/spool-paths.js';
import { type CaptureHandlerOptions, createCaptureHandler } from './engine-capture.js';
import type { EngineHookRunner, EngineInjector, EngineSearch } from './engine-inject.js';
import { createEngineJobs } from './engine-jobs.js';
import { engineHolderGone, type EngineLockRecord, parseEngineLock } from './engine-lock.js';
import { enginePaths } from './engine-paths.js';
import type { EnginePing } from './engine-protocol.js';
import { createEngineServer, listenEngine } from './engine-server.js';
import { ensureEngineToken } from './engine-token.js';
import { startEngineWeb } from './engine-web.js';
import { ENGINE_PROTOCOL_VERSION } from './engine-wire.js';

/** Why a run ended. */
export type EngineStopReason = 'signal' | 'idle' | 'stop_request' | 'lost_lock';

/** The outcome of {@link runEngine}. */
export type EngineRunResult =
  | { status: 'already_running'; holder: EngineLockRecord | undefined }
  | { status: 'stopped'; reason: EngineStopReason };

export interface RunEngineOptions {
  config: Config;
  log: Logger;
  /** Exit after this long without requests or background work; 0 never. */
  idleExitMs: number;
  /** Aborting it shuts the engine down cleanly (the CLI wires SIGTERM and SIGINT to it). */
  signal?: AbortSignal;
  /** Called once the socket accepts requests. */
  onReady?: (info: { pid: number; socket: string }) => void;
  /** Opens the app; default the composition root with the engine's busy timeout. */
  openApp?: (config: Config, log: Logger) => Promise<App>;
  /** Pause between background ticks when there is no backlog. */
  jobIntervalMs?: number;
  /** Memories embedded per tick. */
  embedBatch?: number;
  /** Test seam of the capture hand-off (engine-capture.ts). */
  capture?: CaptureHandlerOptions;
  /** Answers session-start and prompt-recall hooks (`mnemo serve` passes the hooks' handler). */
  inject?: EngineInjector;
  /** Answers whole forwarded hooks (`mnemo serve` passes the hooks' runner). */
  hook?: EngineHookRunner;
}

function injectsContext(event: string): boolean {
  return event === 'session-start' || event === 'user-prompt-submit';
}

/** Pause between background ticks with nothing pending. */
export const ENGINE_JOB_INTERVAL_MS = 5000;
/** Memories embedded per tick: USE lite's efficient batch (see commands/reembed.ts). */
export const ENGINE_EMBED_BATCH = 32;
/**
 * The engine's SQLite busy wait. The wait is synchronous and stalls the socket too, so it is kept short;
 * a busy store only postpones a background step.
 */
export const ENGINE_BUSY_TIMEOUT_MS = 1000;
/** `ping` counts unembedded memories up to this many. */
const UNEMBEDDED_CAP = 100;

function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** How the engine opens the app: a short busy wait, and the vectors held in memory. */
export async function openEngineApp(config: Config, log: Logger): Promise<App> {
  const { openApp } = await import('../app/open-app.js');
  const busyTimeoutMs = Math.min(config.busyTimeoutMs, ENGINE_BUSY_TIMEOUT_MS);
  // The engine lives long enough to repay holding the vectors in memory (sqlite-vector-mirror.ts).
  return openApp({ config: { ...config, busyTimeoutMs }, log, residentVectors: true });
}

async function openModels(
  config: Config,
  log: Logger,
): Promise<{ embedder: Embedder | undefined; reranker: Reranker | undefined }> {
  const { openEmbedder, openReranker } = await import('../embed/open-embedder.js');
  let embedder: Embedder | undefined;
  let reranker: Reranker | undefined;
  try {
    embedder = await openEmbedder(config);
  } catch (error) {
    log.error('engine: no embedder; recall runs without the vector leg', { error: String(error) });
  }
  try {
    reranker = await openReranker(config);
  } catch (error) {
    log.warn('engine: reranker not available', { error: String(error) });
  }
  return { embedder, reranker };
}

/**
 * Runs the engine until it is stopped. Resolves `already_running` at once when a live engine holds the
 * lock (a stale lock of a dead engine is reclaimed). Throws CHECK_FAILED when the home or socket
 * directory is not private, and what opening the store throws.
 */
export async function runEngine(options: RunEngineOptions): Promise<EngineRunResult> {
  const { config, log } = options;
  ensurePrivateDir(config.home);
  const paths = enginePaths(config.home);
  if (paths.socketDir !== undefined) ensurePrivateDir(paths.socketDir, FOREIGN_ANY_BITS);
  const version = packageVersion();
  const record = newLockRecord({
    socket: paths.socket,
    version,
    protocol: ENGINE_PROTOCOL_VERSION,
  });
  const taken = await acquirePidLock(paths.lock, record, {
    parse: parseEngineLock,
    isStale: (holder) => engineHolderGone(holder),
  });
  if (!taken.acquired) return { status: 'already_running', holder: taken.holder };

  const started = Date.now();
  let app: App | undefined;
  const timers: { tick?: NodeJS.Timeout; idle?: NodeJS.Timeout } = {};
  let reason: EngineStopReason | undefined;
  let wake: (why: EngineStopReason) => void = () => undefined;
  const stopped = new Promise<EngineStopReason>((resolve) => {
    wake = (why) => {
      if (reason !== undefined) return;
      reason = why;
      resolve(why);
    };
  });
  const onAbort = () => wake('signal');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) wake('signal');

  const server = await (async () => {
    const token = ensureEngineToken(paths.token, log);
    app = await (options.openApp ?? openEngineApp)(config, log);
    const opened = app;
    const models = await openModels(config, log);
    const jobs = createEngineJobs({
      app: opened,
      embedder: models.embedder,
      batchSize: options.embedBatch ?? ENGINE_EMBED_BATCH,
    });
    await jobs.adoptRule();
    let lastActivity = Date.now();
    const touch = () => {
      lastActivity = Date.now();
    };
    const spool = spoolPaths(config.home);
    let recalls = 0;
    let injections = 0;
    const ping = async (): Promise<EnginePing> => {
      const embedder = jobs.embedder();
      const usage = spoolUsage(spool);
      const unembedded =
        embedder === undefined
          ? 0
          : (await opened.store.listUnembedded(embedder.model, UNEMBEDDED_CAP)).length;
      return {
        pid: process.pid,
        version,
        protocol: ENGINE_PROTOCOL_VERSION,
        uptimeMs: Date.now() - started,
        home: config.home,
        embedder: embedder?.model ?? null,
        recalls,
        injections,
        queues: {
          spoolFiles: usage.files,
          spoolBytes: usage.bytes,
          unembedded,
          unembeddedCap: UNEMBEDDED_CAP,
        },
      };
    };
    const search: EngineSearch = (request) =>
      retrieve(
        {
          store: opened.store,
          clock: opened.clock,
          embedder: jobs.embedder(),
          wordEmbedder: jobs.wordEmbedder(),
          reranker: models.reranker,
        },
        request,
      );
    const capture = createCaptureHandler(opened, options.capture);
    const engine = createEngineServer({
      token,
      log,
      onRequest: touch,
      handlers: {
        ping,
        recall: async (args) => {
          recalls += 1;
          return { hits: await search(args) };
        },
        capture,
        hook: async (args) => {
          if (options.hook === undefined) {
            throw new MemoryError('UNSUPPORTED', 'this engine does not answer forwarded hooks');
          }
          const answer = await options.hook(args, opened, { search, capture });
          if ('stdout' in answer && injectsContext(args.event)) injections += 1;
          return answer;
        },
        inject: async (args) => {
          const { inject } = options;
          if (inject === undefined) {
            throw new MemoryError('UNSUPPORTED', 'this engine does not answer hook injections');
          }
          const answer = await inject(args, opened, search);
          if (!('late' in answer)) injections += 1;
          return answer;
        },
        drain: () => jobs.drainNow(),
        stop: () => {
          // Answer first; the shutdown starts once this response is written.
          setImmediate(() => wake('stop_request'));
          return Promise.resolve({ stopping: true });
        },
      },
    });
    await listenEngine(engine, paths.socket);
    const web = config.ui.withEngine
      ? await startEngineWeb({
          app: opened,
          models: () => Promise.resolve({ embedder: jobs.embedder(), reranker: models.reranker }),
          onActivity: touch,
        })
      : undefined;

    let ticking: Promise<void> = Promise.resolve();
    const interval = options.jobIntervalMs ?? ENGINE_JOB_INTERVAL_MS;
    const tick = () => {
      ticking = (async () => {
        let more = false;
        try {
          // A second engine reclaimed the lock (this one looked dead): leave the home to it.
          if (!ownsPidLock(paths.lock, record.nonce)) return wake('lost_lock');
          const report = await jobs.tick();
          // Work done or still waiting (a spool the busy store has not let us drain) is not idleness.
          if (report.drained + report.embedded > 0 || spoolUsage(spool).files > 0) touch();
          more = report.more;
        } catch (error) {
          log.error('engine: background tick failed', { error: String(error) });
        }
        if (reason === undefined) timers.tick = setTimeout(tick, more ? 0 : interval);
      })();
    };
    timers.tick = setTimeout(tick, 0);
    if (options.idleExitMs > 0) {
      const every = Math.max(100, Math.min(5000, options.idleExitMs / 4));
      timers.idle = setInterval(() => {
        if (engine.inFlight() === 0 && Date.now() - lastActivity >= options.idleExitMs)
          wake('idle');
      }, every);
    }
    log.info('engine started', {
      pid: process.pid,
      socket: paths.socket,
      embedder: models.embedder?.model ?? null,
      idleExitMs: options.idleExitMs,
    });
    options.onReady?.({ pid: process.pid, socket: paths.socket });
    return { engine, web, jobs, ticking: () => ticking };
  })().catch(async (error: unknown) => {
    await app?.close();
    releasePidLock(paths.lock, record.nonce);
    throw error;
  });

  const why = await stopped;
  options.signal?.removeEventListener('abort', onAbort);
  clearTimeout(timers.tick);
  clearInterval(timers.idle);
  log.info('engine stopping', { reason: why });
  try {
    await server.engine.close();
    await server.web?.close();
    await server.ticking();
    // A backup process still copying finishes first: a copy cut short would leave a `.partial` file.
    await server.jobs.settle();
  } finally {
    await app?.close();
    // Another engine that reclaimed the lock owns the socket path now: leave both alone then.
    if (ownsPidLock(paths.lock, record.nonce)) {
      if (!paths.socket.startsWith('\\\\.\\pipe\\')) rmSync(paths.socket, { force: true });
      releasePidLock(paths.lock, record.nonce);
    }
  }
  log.info('engine stopped', { reason: why });
  return { status: 'stopped', reason: why };
}
