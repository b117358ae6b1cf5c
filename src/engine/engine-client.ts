/**
 * Starting and steering the resident engine, for the CLI, hooks and the MCP server: its status, a drain
 * or a stop on request, and a background start. Every call is bounded by a timeout and resolves to
 * `undefined` on any failure; nothing here throws, loads a model or opens the store. Requests go through
 * engine-call.ts, which hooks import on their own; the background start is engine-start.ts, which a
 * hook imports without the rest.
 *
 * Typical use in a hook that spooled a capture:
 *
 *   startEngineDetached(config); // warm it for the next event; returns at once
 */
import * as v from 'valibot';

import type { Config } from '../config/config.js';
import { callEngine, type EngineClientOptions } from './engine-call.js';
import { type EnginePing, pingResultSchema } from './engine-protocol.js';

export type { EnginePing } from './engine-protocol.js';
export { type EngineStartResult, mnemoMainPath, startEngineDetached } from './engine-start.js';

type Home = Pick<Config, 'home'>;

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
