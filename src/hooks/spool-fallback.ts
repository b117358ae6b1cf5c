/**
 * The hook side of the spool (threat model W11, S6): when a capture hook cannot reach the store in time
 * it spools instead of dropping the capture. This file holds the rules run-hook applies: which failures
 * mean "out of reach", how close to the deadline is too close to start a write, and the background start
 * of the engine that will drain what was spooled. It loads nothing heavy: the engine client is imported
 * only when a hook found no engine.
 */
import type { Config } from '../config/config.js';
import { isMemoryError } from '../core/errors.js';
import { startEngineDetached } from '../engine/engine-start.js';
import type { Logger } from '../log/log.js';
import type { AppendOutcome } from '../spool/append-spool.js';

/** What a hook's spool fallback receives: the config and the log, no app (the store is out of reach). */
export interface SpoolContext {
  config: Config;
  log: Logger;
  /** False when the engine must not be asked (none runs, or it declined or did not answer this hook). */
  askEngine: boolean;
}

/** What a spool fallback did: wrote a file, had nothing the store would keep, or was refused. */
export type SpoolOutcome = AppendOutcome | { spooled: false; reason: 'nothing_to_store' };

/** Why a hook spooled. */
export type SpoolTrigger =
  | 'store_busy'
  | 'store_unavailable'
  | 'deadline_near'
  | 'deadline'
  | 'engine_unanswered'
  | 'engine_down';

/** Time kept back for spooling and exiting once a write is abandoned. */
const SPOOL_MARGIN_MS = 100;

/** The trigger for `error` when it means the store is out of reach (busy or unavailable), else undefined. */
export function outOfReach(error: unknown): SpoolTrigger | undefined {
  if (isMemoryError(error, 'STORE_BUSY')) return 'store_busy';
  if (isMemoryError(error, 'STORE_UNAVAILABLE')) return 'store_unavailable';
  return undefined;
}

/**
 * True when less time is left than one write can take: a SQLite write waits up to the busy timeout
 * synchronously (the deadline timer cannot interrupt it), so starting one this late could overrun the
 * deadline. The hook spools instead.
 */
export function deadlineTooClose(remainingMs: number, busyTimeoutMs: number): boolean {
  return remainingMs < busyTimeoutMs + SPOOL_MARGIN_MS;
}

/**
 * Runs one spool write and logs its outcome (`capture.spooled` on success). True when the event is
 * accounted for: spooled, refused by the spool (full, unsafe) or with nothing to store; false when the
 * write threw, which is logged as a lost capture.
 */
export function spoolAndLog(
  hook: string,
  trigger: SpoolTrigger,
  log: Logger,
  write: () => SpoolOutcome,
  elapsedMs?: () => number,
): boolean {
  let outcome: SpoolOutcome;
  try {
    outcome = write();
  } catch (error) {
    log.error('spool failed; the capture is lost', { hook, trigger, error: String(error) });
    return false;
  }
  if (outcome.spooled) {
    // How long the hook had run when its capture was safe: what its deadline is measured against.
    log.info('capture.spooled', {
      hook,
      trigger,
      entries: outcome.entries,
      elapsedMs: elapsedMs?.(),
    });
  } else if (outcome.reason === 'nothing_to_store') {
    log.debug('store out of reach; nothing to spool', { hook, trigger });
  } else {
    log.warn('capture not spooled', { hook, trigger, refused: outcome.reason });
  }
  return true;
}

/**
 * Starts `mnemo serve` in the background, when `engine.autoStart` allows, for a hook that found no engine
 * (it read or wrote the store itself, or spooled a capture the engine will drain), so the next hook is
 * answered by the engine. At most one start per home however many hooks race here (engine-start.ts).
 * Never throws and never waits for the engine.
 */
export function startEngineInBackground(config: Config, log: Logger): Promise<void> {
  if (!config.engine.autoStart) return Promise.resolve();
  try {
    const started = startEngineDetached(config, { log });
    log.debug('engine start from a hook', { ...started });
  } catch (error) {
    log.warn('engine start from a hook failed', { error: String(error) });
  }
  return Promise.resolve();
}
