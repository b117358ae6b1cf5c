/**
 * `mnemo hook post-tool-use` and `post-tool-use-failure`: after a tool ran, (1) taint the session when the
 * tool's channel is a taint source, whether or not anything is captured, and (2) capture a short summary
 * when the capture policy accepts the channel. Both decisions read the envelope (event, tool name) and
 * sizes only; the tool's output is summarised, never consulted.
 */
import type { App } from '../app/open-app.js';
import {
  buildCapture,
  type BuiltCapture,
  type CaptureSource,
  commandKeyText,
} from '../core/capture/capture-content.js';
import {
  type CaptureDecision,
  decideCapture,
  type SkipReason,
} from '../core/capture/capture-policy.js';
import { isMemoryError } from '../core/errors.js';
import { explainOrigin, type OriginConfig } from '../core/origin/classify-origin.js';
import { isTaintSource } from '../core/origin/origin-class.js';
import { parseToolName } from '../core/origin/tool-names.js';
import { resolveProjectKey } from '../project/project-key.js';
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
function taints(app: App, toolName: string, originConfig: OriginConfig): boolean {
  const parsed = parseToolName(toolName);
  if (parsed.kind === 'mcp' && parsed.tool === 'remember' && isMnemoTool(toolName, originConfig)) {
    return false;
  }
  const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
  return isTaintSource(origin, { strict: app.config.taint.strict });
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

/** True when the newest error/fix for this command in this session is an error (a fix is due). */
async function fixIsDue(
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

/** Handles PostToolUse and PostToolUseFailure. Prints nothing. */
export async function handleToolResult(input: ToolResultInput, app: App): Promise<HookResult> {
  const toolName = input.tool_name;
  const originConfig = writePolicyFromConfig(app.config).originConfig;
  if (taints(app, toolName, originConfig)) {
    const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
    await app.store.markSessionTainted(input.session_id, origin, shortName(toolName));
  }

  const failure = input.hook_event_name === 'PostToolUseFailure';
  const decision: CaptureDecision = decideCapture(
    {
      event: input.hook_event_name,
      toolName,
      origin: explainOrigin({ channel: 'tool', toolName }, originConfig),
      ownTool: isMnemoTool(toolName, originConfig),
      interrupted: failure ? input.is_interrupt : undefined,
    },
    captureConfigFrom(app.config),
  );
  if (decision.action === 'skip') return skip(app, toolName, decision.reason);

  let projectKey: string;
  try {
    projectKey = resolveProjectKey(input.cwd);
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    return skip(app, toolName, 'no_project');
  }

  const source: CaptureSource = {
    toolName,
    toolInput: input.tool_input,
    toolResponse: failure ? undefined : input.tool_response,
    error: failure ? (input.error ?? '') : undefined,
    cwd: input.cwd,
  };
  const minChars = captureConfigFrom(app.config).minChars;
  let tags: string[] = [];
  if (decision.channel === 'exec_failure' || decision.channel === 'exec_success') {
    const command = commandKeyText(input.tool_input);
    if (command === undefined) return skip(app, toolName, 'missing_fields');
    tags = [commandTag(command)];
    if (
      decision.channel === 'exec_success' &&
      !(await fixIsDue(app, projectKey, input.session_id, tags[0] ?? ''))
    ) {
      return skip(app, toolName, 'no_prior_failure');
    }
  }
  const built: BuiltCapture = buildCapture(decision.channel, source, minChars);
  if (!built.ok) return skip(app, toolName, built.reason);

  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'tool', toolName },
    content: built.content,
    projectKey,
    kind: built.kind,
    tags,
    sessionId: input.session_id,
    originTool: shortName(toolName),
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
