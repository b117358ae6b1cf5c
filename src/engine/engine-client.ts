/**
 * Starting and steering the resident engine, for the CLI, hooks and the MCP server: its status, a drain
 * or a stop on request, and a background start. Every call is bounded by a timeout and resolves to
 * `undefined` on any failure; nothing here throws, loads a model or opens the store. Requests go through
 * engine-call.ts, which hooks import on their own (this file also loads `node:child_process`).
 *
 * Typical use in a hook that spooled a capture:
 *
 *   startEngineDetached(config); // warm it for the next event; returns at once
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import * as v from 'valibot';

import type { Config } from '../config/config.js';
import { readPidLock } from '../platform/pid-lock.js';
import { callEngine, type EngineClientOptions } from './engine-call.js';
import { engineProbablyRunning, parseEngineLock } from './engine-lock.js';
import { enginePaths } from './engine-paths.js';
import { type EnginePing, pingResultSchema } from './engine-protocol.js';

export type { EnginePing } from './engine-protocol.js';

type Home = Pick<Config, 'home'>;

/** What {@link startEngineDetached} did. */
export type EngineStartResult =
  | { started: true; pid: number | undefined }
  | { started: false; reason: 'running' | 'recently_attempted' | 'no_binary' };

/** Background starts closer together than this are skipped (a burst of hooks starts one engine). */
const START_ATTEMPT_INTERVAL_MS = 10_000;

/** The engine's status (pid, version, uptime, queue sizes), or undefined when none answers in time. */
export async function pingEngine(
  config: Home,
  timeoutMs: number,
  options: EngineClientOptions = {},
): Promise<EnginePing | undefined> {
  const parsed = v.safeParse(
    pingResultSchema,
    await callEngine(config, 'ping', undefined, timeoutMs, options),
  );
  return parsed.success ? parsed.output : undefined;
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

/** Creates `file` only if it does not exist yet; false when it does. */
function createExclusive(file: string): boolean {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Claims the right to start the engine: true for exactly one of any number of processes racing here
 * (16 hooks of one tool call find the engine down at once). The claim is `file`, created exclusively;
 * one older than {@link START_ATTEMPT_INTERVAL_MS} is stale (that start was attempted long enough ago),
 * and is moved aside by rename, which only one process can do to a given file: that process claims
 * anew. A process whose rename took a newer claim than the stale one it looked at (another process
 * reclaimed in between) does not start an engine either; the claim it moved aside is lost, so at worst
 * a second engine starts, and exits at once on the engine lock (run-engine.ts). `force` always claims.
 */
function claimStart(file: string, force: boolean): boolean {
  if (force) {
    writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
    return true;
  }
  if (createExclusive(file)) return true;
  const seen = statSync(file, { throwIfNoEntry: false });
  if (seen === undefined) return createExclusive(file);
  if (Date.now() - seen.mtimeMs < START_ATTEMPT_INTERVAL_MS) return false;
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    // Another process moved the stale claim first: it starts the engine.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = statSync(aside, { throwIfNoEntry: false });
  unlinkSync(aside);
  if (moved?.ino !== seen.ino || moved.mtimeMs !== seen.mtimeMs) return false;
  return createExclusive(file);
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
  const main = mnemoMainPath();
  if (!existsSync(main)) return { started: false, reason: 'no_binary' };
  mkdirSync(config.home, { recursive: true, mode: 0o700 });
  if (!claimStart(paths.starting, options.force === true)) {
    return { started: false, reason: 'recently_attempted' };
  }
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
