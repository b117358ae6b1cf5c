/**
 * The engine's lock record and the test of whether its holder is still an engine. A lock is live while
 * its pid exists and either the holder is still starting (under {@link ENGINE_START_GRACE_MS}) or its
 * socket accepts a connection; a pid reused by an unrelated process after a crash therefore does not
 * keep a dead engine's lock alive for long.
 */
import { lstatSync } from 'node:fs';

import { isPidAlive, type PidLockRecord } from '../platform/pid-lock.js';

/** What `home/engine.lock` holds. */
export interface EngineLockRecord extends PidLockRecord {
  /** The socket the engine listens on (see engine-paths.ts). */
  socket: string;
  /** The mnemo version of the engine. */
  version: string;
  /** Its protocol version. */
  protocol: number;
}

/** How long a new engine may take to open the store and listen before a silent socket means "gone". */
export const ENGINE_START_GRACE_MS = 10_000;

/** A lock file's record, or undefined for anything else. */
export function parseEngineLock(value: unknown): EngineLockRecord | undefined {
  const v = value as Partial<EngineLockRecord> | null;
  if (
    typeof v?.pid !== 'number' ||
    typeof v.startedAt !== 'string' ||
    typeof v.nonce !== 'string' ||
    typeof v.socket !== 'string' ||
    typeof v.version !== 'string' ||
    typeof v.protocol !== 'number'
  ) {
    return undefined;
  }
  return {
    pid: v.pid,
    startedAt: v.startedAt,
    nonce: v.nonce,
    socket: v.socket,
    version: v.version,
    protocol: v.protocol,
  };
}

/** True while the holder is inside its start-up grace period. */
export function isStarting(holder: EngineLockRecord, now = Date.now()): boolean {
  const at = Date.parse(holder.startedAt);
  return Number.isFinite(at) && now - at < ENGINE_START_GRACE_MS;
}

/** True when something accepts connections on `path` within `timeoutMs`. */
export async function socketAccepts(path: string, timeoutMs: number): Promise<boolean> {
  // Loaded on use: hooks import this file to read the lock, and never probe a socket.
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether the engine that wrote `holder` is gone: its lock may be reclaimed. */
export async function engineHolderGone(holder: EngineLockRecord, probeMs = 500): Promise<boolean> {
  if (!isPidAlive(holder.pid)) return true;
  if (isStarting(holder)) return false;
  return !(await socketAccepts(holder.socket, probeMs));
}

/**
 * A quick, synchronous "probably running" for callers that must not wait (a hook deciding whether to
 * start the engine): the pid exists and the engine is starting or its socket file exists.
 */
export function engineProbablyRunning(holder: EngineLockRecord): boolean {
  if (!isPidAlive(holder.pid)) return false;
  if (isStarting(holder)) return true;
  return lstatSync(holder.socket, { throwIfNoEntry: false }) !== undefined;
}
