/**
 * The specs of the two hooks that inject context, session-start and user-prompt-submit. When the engine
 * runs, each hook sends it the payload (engine/engine-inject.ts) and prints what it answers, so the hook
 * neither opens the store nor loads the SQLite driver; the engine runs the same handler
 * (hooks/engine-injection.ts: pack planning, injection gate, renderer and ledger). With no engine, an
 * engine that lacks the op, or no answer in time, the hook reads the store itself as before, within the
 * same deadline. The handlers are imported only on that direct path, so the engine path loads little;
 * each hook's spec is in its entry module (hooks/entry/), so a hook's direct chunk holds its own
 * handler only (scripts/bundle-hooks.mjs).
 */
import { engineInject } from '../engine/engine-call.js';
import type { EngineInjectArgs } from '../engine/engine-protocol.js';
import { DIRECT_RESERVE_MS, ENGINE_INJECT_WAIT_MS } from './hook-limits.js';
import type { Storeless } from './run-hook.js';
import type { SpoolContext } from './spool-fallback.js';

/**
 * The engine gives up (records nothing, answers `late`) this long before the hook stops waiting, so an
 * answer that made it into the ledger reaches the hook in time.
 */
const ANSWER_MARGIN_MS = 100;

/**
 * Asks the engine to answer the hook: `{ stdout }` or `handled` (nothing to print) when it did, `open`
 * when the hook must read the store. `input` carries only the fields the handler reads.
 */
export async function viaEngine(
  event: EngineInjectArgs['event'],
  input: Record<string, unknown>,
  ctx: SpoolContext,
  remainingMs: number,
): Promise<Storeless> {
  if (!ctx.askEngine) return 'open';
  const waitMs = Math.min(ENGINE_INJECT_WAIT_MS, remainingMs - DIRECT_RESERVE_MS);
  if (waitMs < 2 * ANSWER_MARGIN_MS) return 'open';
  const args = {
    event,
    input,
    injection: ctx.config.injection,
    answerBy: Date.now() + waitMs - ANSWER_MARGIN_MS,
  };
  const answer = await engineInject(ctx.config, args, waitMs, { log: ctx.log });
  if (answer.status === 'fallback') return 'open';
  ctx.log.debug('injection answered by the engine', { event, printed: answer.stdout !== null });
  return answer.stdout === null ? 'handled' : { stdout: answer.stdout };
}
