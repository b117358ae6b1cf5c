/**
 * `mnemo hook post-tool-use` and `post-tool-use-failure`: after a tool ran, (1) taint the session when the
 * tool's channel is a taint source, whether or not anything is captured, and (2) capture a short summary
 * when the capture policy accepts the channel. Both decisions read the envelope (event, tool name) and
 * sizes only; the tool's output is summarised, never consulted (src/capture).
 *
 * The plan is made without the store, and the store is opened only when this process must write it
 * ({@link toolResultWithoutStore}): a running engine is handed the plan over its socket and answers once
 * it is stored, and a skip from a tool that does not taint is only tallied. When the store cannot be
 * reached in time, run-hook calls {@link spoolToolResult} instead, and the spool drain later applies the
 * same plan.
 */
import type { App } from '../app/open-app.js';
import { planIsInert, planToolResult, shortName } from '../capture/plan-tool-result.js';
import { handOffCapture } from '../engine/engine-call.js';
import { appendSpool } from '../spool/append-spool.js';
import { oldestWaitingMs, spoolPaths } from '../spool/spool-paths.js';
import type { SpoolEntry } from '../spool/spool-record.js';
import { tallySkip } from '../spool/spool-tally.js';
import { type ToolResultInput, toolResultInput } from './hook-input.js';
import { ENGINE_HANDOFF_WAIT_MS, HANDOFF_MARGIN_MS } from './hook-limits.js';
import type { HookResult, HookSpec, Storeless } from './run-hook.js';
import type { SpoolContext, SpoolOutcome } from './spool-fallback.js';

/**
 * Handles PostToolUse and PostToolUseFailure with the store open. Prints nothing. The write path is
 * imported here, so a hook that hands its capture to the engine never loads it.
 */
export async function handleToolResult(input: ToolResultInput, app: App): Promise<HookResult> {
  const { applyToolResult } = await import('../capture/apply-tool-result.js');
  await applyToolResult(planToolResult(input, app.config), app);
  return {};
}

async function taintRefused(raw: Record<string, unknown>, app: App): Promise<void> {
  const { taintRefusedToolResult } = await import('../capture/apply-tool-result.js');
  await taintRefusedToolResult(raw, app);
}

/**
 * A spool that has waited this long is not being drained (the engine does not start, or fails): captures
 * are then written directly rather than queued behind it.
 */
export const SPOOL_UNDRAINED_MS = 30_000;

/**
 * True when an engine will be started for this capture and the spool is being drained: the capture is
 * then spooled (durable, redacted, no store opened) and the engine this hook starts stores it.
 */
function engineWillDrain(ctx: SpoolContext): boolean {
  if (!ctx.config.engine.autoStart) return false;
  try {
    const waited = oldestWaitingMs(spoolPaths(ctx.config.home));
    return waited === undefined || waited < SPOOL_UNDRAINED_MS;
  } catch (error) {
    ctx.log.debug('spool unreadable; writing the capture directly', { error: String(error) });
    return false;
  }
}

/**
 * A tool result without opening the store: a plan with nothing for the store but a skip counter is
 * tallied (spool/spool-tally.ts); any other plan is handed to a running engine. With none running,
 * `spool_for_engine` when one will be started to drain it ({@link engineWillDrain}: capture costs a
 * spool append instead of opening the store), else `open` (this process writes as usual); `spool` when
 * the engine did not answer.
 */
export async function toolResultWithoutStore(
  input: ToolResultInput,
  ctx: SpoolContext,
  remainingMs: number,
): Promise<Storeless> {
  const plan = planToolResult(input, ctx.config);
  if (planIsInert(plan, ctx.config) && 'skip' in plan.capture) {
    ctx.log.debug('capture skipped', { tool: shortName(plan.toolName), reason: plan.capture.skip });
    return tallySkip(ctx.config, plan.capture.skip, ctx.log) ? 'handled' : 'open';
  }
  const waitMs = Math.min(ENGINE_HANDOFF_WAIT_MS, remainingMs - HANDOFF_MARGIN_MS);
  if (!ctx.askEngine && engineWillDrain(ctx)) return 'spool_for_engine';
  if (!ctx.askEngine || waitMs <= 0) return 'open';
  const handOff = await handOffCapture(ctx.config, { type: 'tool_result', ...plan }, waitMs, {
    log: ctx.log,
  });
  if (handOff.status === 'unreachable') return engineWillDrain(ctx) ? 'spool_for_engine' : 'open';
  if (handOff.status === 'unanswered') {
    ctx.log.warn('engine did not answer a capture hand-off; spooling it', {
      tool: shortName(plan.toolName),
      reason: handOff.reason,
    });
    return 'spool';
  }
  ctx.log.debug('capture handed to the engine', {
    tool: shortName(plan.toolName),
    outcome: handOff.outcome,
  });
  return 'handled';
}

/**
 * The spool fallback of the tool-result hooks (run-hook calls it when the store is busy or unavailable,
 * or the deadline is near): the plan goes to the durable spool, redacted there, when it has anything for
 * the store to do; the drain applies it later with `applyToolResult`. Returns whether it spooled.
 */
export function spoolToolResult(input: ToolResultInput, ctx: SpoolContext): SpoolOutcome {
  const plan = planToolResult(input, ctx.config);
  if (planIsInert(plan, ctx.config) && 'skip' in plan.capture) {
    ctx.log.debug('capture skipped while the store was out of reach', {
      tool: shortName(plan.toolName),
      reason: plan.capture.skip,
    });
    return { spooled: false, reason: 'nothing_to_store' };
  }
  return appendSpool(ctx.config, [{ type: 'tool_result', ...plan }], { log: ctx.log });
}

/** The spool fallback for a refused tool-result payload: its session is tainted once drained. */
export function spoolRefusedToolResult(
  raw: Record<string, unknown>,
  ctx: SpoolContext,
): SpoolOutcome {
  return appendSpool(ctx.config, [refusedToolResultEntry(raw)], { log: ctx.log });
}

/** The capture of a refused tool-result payload: its session, when the raw object names one, is tainted. */
export function refusedToolResultEntry(raw: Record<string, unknown>): SpoolEntry {
  const id = raw['session_id'];
  const sessionId = typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : null;
  return { type: 'refused_tool_result', sessionId };
}

/** The spec of `post-tool-use` and `post-tool-use-failure` (both accept either event). */
export function toolResultSpec(name: string): HookSpec<ToolResultInput> {
  return {
    name,
    schema: toolResultInput,
    handle: handleToolResult,
    // A tool result we refused still entered the model's context: its session is tainted (fail closed).
    onRefused: taintRefused,
    // A busy or unreachable store: the event goes to the spool, drained later by `mnemo serve`.
    spool: spoolToolResult,
    spoolRefused: spoolRefusedToolResult,
    withoutStore: toolResultWithoutStore,
  };
}
