/**
 * Starting the resident engine in the background: `mnemo serve --foreground`, detached, at most once per
 * home however many processes race to start it. Its own module, light enough for a hook's bundle to
 * import statically (a hook that spooled a capture starts the engine without loading the store's code).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Config } from '../config/config.js';
import { readPidLock } from '../platform/pid-lock.js';
import type { EngineClientOptions } from './engine-call.js';
import { engineProbablyRunning, parseEngineLock } from './engine-lock.js';
import { enginePaths } from './engine-paths.js';

type Home = Pick<Config, 'home'>;

/** What {@link startEngineDetached} did. */
export type EngineStartResult =
  | { started: true; pid: number | undefined }
  | { started: false; reason: 'running' | 'recently_attempted' | 'no_binary' };

/** Background starts closer together than this are skipped (a burst of hooks starts one engine). */
const START_ATTEMPT_INTERVAL_MS = 10_000;

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
