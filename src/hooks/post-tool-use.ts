/**
 * `mnemo hook post-tool-use` and `post-tool-use-failure`: after a tool ran, (1) taint the session when the
 * tool's channel is a taint source, whether or not anything is captured, and (2) capture a short summary
 * when the capture policy accepts the channel. Both decisions read the envelope (event, tool name) and
 * sizes only; the tool's output is summarised, never consulted.
 *
 * The work is split in two so a capture survives a busy store: {@link planToolResult} decides and builds
 * the capture without the store; {@link applyToolResult} carries it out. When the store cannot be reached
 * in time, run-hook calls {@link spoolToolResult} instead, and the spool drain later applies the same plan.
 */
import type { App } from '../app/open-app.js';
import type { Config } from '../config/config.js';
import {
  buildCapture,
  type BuiltCapture,
  type CaptureSource,
  commandKeyText,
} from '../core/capture/capture-content.js';
import {
  type CaptureDecision,
  type CaptureEvent,
  decideCapture,
  type SkipReason,
} from '../core/capture/capture-policy.js';
import { isMemoryError } from '../core/errors.js';
import type { MemoryKind } from '../core/memory.js';
import { explainOrigin, type OriginConfig } from '../core/origin/classify-origin.js';
import { isTaintSource } from '../core/origin/origin-class.js';
import { parseToolName } from '../core/origin/tool-names.js';
import { resolveProjectKey } from '../project/project-key.js';
import { appendSpool } from '../spool/append-spool.js';
import type { SpoolContext, SpoolOutcome } from '../spool/spool-fallback.js';
import { contentHash } from '../store/content-hash.js';
import { type RejectReason, writeMemory } from '../write/write-memory.js';
import { writeDepsFrom, writePolicyFromConfig } from '../write/write-policy.js';
import { captureConfigFrom } from './capture-config.js';
import type { ToolResultInput } from './hook-input.js';
import { isMnemoTool } from './own-tools.js';
import type { HookResult } from './run-hook.js';

/** Tool names are host data; logs and taint rows keep a bounded prefix. */
const TOOL_NAME_LOG_CHARS = 128;

function shortName(toolName: string): string {
  return toolName.slice(0, TOOL_NAME_LOG_CHARS);
}

/**
 * Whether this tool's result taints the session. mnemo's own `remember` is the one exception: its result
 * is our acknowledgement, not content, and tainting on it would class the agent's next `remember` in the
 * same turn as tainted. Every other mnemo tool (recall can surface quarantined memories) taints as usual.
 */
function taints(config: Config, toolName: string, originConfig: OriginConfig): boolean {
  const parsed = parseToolName(toolName);
  if (parsed.kind === 'mcp' && parsed.tool === 'remember' && isMnemoTool(toolName, originConfig)) {
    return false;
  }
  const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
  return isTaintSource(origin, { strict: config.taint.strict });
}

/** A skip by the capture policy, or a write the write service refused (`RejectReason`). */
type CaptureSkip = SkipReason | RejectReason;

async function skip(app: App, toolName: string, reason: CaptureSkip): Promise<HookResult> {
  app.log.debug('capture skipped', { tool: shortName(toolName), reason });
  await app.store.bumpCounter(`capture.skipped.${reason}`);
  return {};
}

/** The tag linking a failed command to its later fix: a short hash of the command, never its text. */
export function commandTag(command: string): string {
  return `cmd:${contentHash(command).slice(0, 16)}`;
}

/**
 * True when the newest error/fix for this command in this session is an error (a fix is due). Shared
 * with the transcript import, which pairs a command's success with its earlier failure the same way.
 */
export async function fixIsDue(
  app: App,
  projectKey: string,
  sessionId: string,
  tag: string,
): Promise<boolean> {
  const recent = await app.store.listMemories({
    scope: { projectKey, includeGlobal: false },
    kinds: ['error', 'fix'],
    tags: [tag],
    limit: 50,
  });
  const mine = recent.find((memory) => memory.sessionId === sessionId);
  return mine?.kind === 'error';
}

/** What a tool-result event asks of the store, decided without it: the spool records exactly this. */
export interface ToolResultPlan {
  event: CaptureEvent;
  toolName: string;
  sessionId: string;
  interrupted?: boolean;
  /** The capture to write (text not yet redacted: the write path or the spool redacts it), or why none. */
  capture: PlannedCapture | { skip: SkipReason };
}

/** A capture built from the event, ready for the write service. */
export interface PlannedCapture {
  projectKey: string;
  /** The session's directory: the capture's cited files are anchored against its working tree. */
  cwd?: string;
  kind: MemoryKind;
  content: string;
  tags: string[];
}

function decide(
  plan: Pick<ToolResultPlan, 'event' | 'toolName' | 'interrupted'>,
  config: Config,
): CaptureDecision {
  const originConfig = writePolicyFromConfig(config).originConfig;
  return decideCapture(
    {
      event: plan.event,
      toolName: plan.toolName,
      origin: explainOrigin({ channel: 'tool', toolName: plan.toolName }, originConfig),
      ownTool: isMnemoTool(plan.toolName, originConfig),
      interrupted: plan.event === 'PostToolUseFailure' ? plan.interrupted : undefined,
    },
    captureConfigFrom(config),
  );
}

/**
 * Decides what a PostToolUse/PostToolUseFailure event captures, from the envelope and the config only:
 * no store access, so a hook that cannot reach the store can still spool the result.
 */
export function planToolResult(input: ToolResultInput, config: Config): ToolResultPlan {
  const failure = input.hook_event_name === 'PostToolUseFailure';
  const base = {
    event: input.hook_event_name,
    toolName: input.tool_name,
    sessionId: input.session_id,
    ...(failure && input.is_interrupt !== undefined ? { interrupted: input.is_interrupt } : {}),
  };
  const plan = (capture: ToolResultPlan['capture']): ToolResultPlan => ({ ...base, capture });
  const decision = decide(base, config);
  if (decision.action === 'skip') return plan({ skip: decision.reason });

  let projectKey: string;
  try {
    projectKey = resolveProjectKey(input.cwd);
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    return plan({ skip: 'no_project' });
  }
  const source: CaptureSource = {
    toolName: input.tool_name,
    toolInput: input.tool_input,
    toolResponse: failure ? undefined : input.tool_response,
    error: failure ? (input.error ?? '') : undefined,
    cwd: input.cwd,
  };
  let tags: string[] = [];
  if (decision.channel === 'exec_failure' || decision.channel === 'exec_success') {
    const command = commandKeyText(input.tool_input);
    if (command === undefined) return plan({ skip: 'missing_fields' });
    tags = [commandTag(command)];
  }
  const built: BuiltCapture = buildCapture(
    decision.channel,
    source,
    captureConfigFrom(config).minChars,
  );
  if (!built.ok) return plan({ skip: built.reason });
  return plan({ projectKey, cwd: input.cwd, kind: built.kind, content: built.content, tags });
}

/**
 * Carries out a plan against the store: taints the session when the tool's channel is a taint source,
 * then writes the capture through the write service. Used live and by the spool drain, so a spooled
 * capture gets exactly the live treatment; everything privilege-related (taint, the capture decision,
 * origin) is recomputed here from the event and tool name, never taken from the plan's text.
 */
export async function applyToolResult(plan: ToolResultPlan, app: App): Promise<HookResult> {
  const { toolName } = plan;
  const originConfig = writePolicyFromConfig(app.config).originConfig;
  if (taints(app.config, toolName, originConfig)) {
    const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
    await app.store.markSessionTainted(plan.sessionId, origin, shortName(toolName));
  }
  if ('skip' in plan.capture) return skip(app, toolName, plan.capture.skip);
  const decision = decide(plan, app.config);
  if (decision.action === 'skip') return skip(app, toolName, decision.reason);
  const capture = plan.capture;
  if (
    decision.channel === 'exec_success' &&
    !(await fixIsDue(app, capture.projectKey, plan.sessionId, capture.tags[0] ?? ''))
  ) {
    return skip(app, toolName, 'no_prior_failure');
  }

  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'tool', toolName },
    content: capture.content,
    projectKey: capture.projectKey,
    kind: capture.kind,
    tags: capture.tags,
    sessionId: plan.sessionId,
    originTool: shortName(toolName),
    workingDir: capture.cwd ?? null,
  });
  if (outcome.decision === 'reject') return skip(app, toolName, outcome.reason);
  app.log.debug('captured', {
    tool: shortName(toolName),
    decision: outcome.decision,
    id: outcome.memory.id,
    origin: outcome.origin,
  });
  return {};
}

/** Handles PostToolUse and PostToolUseFailure. Prints nothing. */
export async function handleToolResult(input: ToolResultInput, app: App): Promise<HookResult> {
  return applyToolResult(planToolResult(input, app.config), app);
}

/**
 * The spool fallback of the tool-result hooks (run-hook calls it when the store is busy or unavailable,
 * or the deadline is near): the plan goes to the durable spool, redacted there, when it has anything for
 * the store to do; the drain applies it later with {@link applyToolResult}. Returns whether it spooled.
 */
export function spoolToolResult(input: ToolResultInput, ctx: SpoolContext): SpoolOutcome {
  const plan = planToolResult(input, ctx.config);
  const originConfig = writePolicyFromConfig(ctx.config).originConfig;
  if ('skip' in plan.capture && !taints(ctx.config, plan.toolName, originConfig)) {
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
  const id = raw['session_id'];
  const sessionId = typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : null;
  return appendSpool(ctx.config, [{ type: 'refused_tool_result', sessionId }], { log: ctx.log });
}
