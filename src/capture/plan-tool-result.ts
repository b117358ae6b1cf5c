/**
 * The capture module: what a tool-result event (PostToolUse, PostToolUseFailure) asks of the store, and
 * carrying it out. Shared by every path a tool result can take: the live hook, the engine hand-off, the
 * spool drain and the transcript import, so all of them treat a result exactly alike. It sits below
 * `hooks/`, `spool/`, `engine/` and `transcripts/` and imports none of them.
 *
 * This file decides without the store: {@link planToolResult} reads the envelope (event, tool name) and
 * sizes only, never the tool's output, and builds the capture text (not yet redacted: the write path or
 * the spool redacts it). apply-tool-result.ts applies a plan.
 */
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
import { isMnemoTool } from '../core/origin/own-tools.js';
import { sourceUrlOf } from '../core/origin/source-url.js';
import { parseToolName } from '../core/origin/tool-names.js';
import { resolveProjectKey } from '../project/project-key.js';
import { contentHash } from '../store/content-hash.js';
import { writePolicyFromConfig } from '../write/write-policy.js';
import { captureConfigFrom } from './capture-config.js';

/** Tool names are host data; logs and taint rows keep a bounded prefix. */
const TOOL_NAME_LOG_CHARS = 128;

/** The bounded prefix of a tool name kept in logs and taint rows. */
export function shortName(toolName: string): string {
  return toolName.slice(0, TOOL_NAME_LOG_CHARS);
}

/** The fields of a tool-result payload the plan reads (a validated hook input has them all). */
export interface ToolResultEnvelope {
  hook_event_name: CaptureEvent;
  session_id: string;
  cwd: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response?: unknown;
  error?: unknown;
  is_interrupt?: boolean;
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
  /** The page the tool read, from its `url` input (core/origin/source-url.ts); absent when none. */
  sourceUrl?: string;
}

/**
 * Whether this tool's result taints the session. mnemo's own `remember` is the one exception: its result
 * is our acknowledgement, not content, and tainting on it would class the agent's next `remember` in the
 * same turn as tainted. Every other mnemo tool (recall can surface quarantined memories) taints as usual.
 */
export function taints(config: Pick<Config, 'taint' | 'mcpTools'>, toolName: string): boolean {
  const originConfig: OriginConfig = { mcpTools: config.mcpTools };
  const parsed = parseToolName(toolName);
  if (parsed.kind === 'mcp' && parsed.tool === 'remember' && isMnemoTool(toolName, originConfig)) {
    return false;
  }
  const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
  return isTaintSource(origin, { strict: config.taint.strict });
}

/** The tag linking a failed command to its later fix: a short hash of the command, never its text. */
export function commandTag(command: string): string {
  return `cmd:${contentHash(command).slice(0, 16)}`;
}

/** The capture policy's decision for a plan's channel fields, recomputed from the config each time. */
export function decideToolResult(
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
 * no store access, so a hook that cannot reach the store can still hand the result on or spool it.
 */
export function planToolResult(input: ToolResultEnvelope, config: Config): ToolResultPlan {
  const failure = input.hook_event_name === 'PostToolUseFailure';
  const base = {
    event: input.hook_event_name,
    toolName: input.tool_name,
    sessionId: input.session_id,
    ...(failure && input.is_interrupt !== undefined ? { interrupted: input.is_interrupt } : {}),
  };
  const plan = (capture: ToolResultPlan['capture']): ToolResultPlan => ({ ...base, capture });
  const decision = decideToolResult(base, config);
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
  const sourceUrl = sourceUrlOf(input.tool_input['url']);
  return plan({
    projectKey,
    cwd: input.cwd,
    kind: built.kind,
    content: built.content,
    tags,
    ...(sourceUrl === null ? {} : { sourceUrl }),
  });
}

/** True when a plan has nothing for the store to do: no capture, and a tool that does not taint. */
export function planIsInert(plan: ToolResultPlan, config: Config): boolean {
  return 'skip' in plan.capture && !taints(config, plan.toolName);
}
