/**
 * Carrying out a tool-result plan (plan-tool-result.ts) against the store: the one place a tool result
 * taints a session or becomes a memory, whichever path it took (live hook, engine hand-off, spool drain).
 * Everything privilege-related (taint, the capture decision, origin) is recomputed here from the event
 * and tool name with the current config, never taken from the plan's text.
 */
import type { App } from '../app/open-app.js';
import type { SkipReason } from '../core/capture/capture-policy.js';
import { explainOrigin } from '../core/origin/classify-origin.js';
import { type RejectReason, writeMemory } from '../write/write-memory.js';
import { writeDepsFrom, writePolicyFromConfig } from '../write/write-policy.js';
import { decideToolResult, shortName, taints, type ToolResultPlan } from './plan-tool-result.js';

/** A skip by the capture policy, or a write the write service refused (`RejectReason`). */
type CaptureSkip = SkipReason | RejectReason;

async function skip(app: App, toolName: string, reason: CaptureSkip): Promise<void> {
  app.log.debug('capture skipped', { tool: shortName(toolName), reason });
  await app.store.bumpCounter(`capture.skipped.${reason}`);
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

/**
 * Carries out a plan: taints the session when the tool's channel is a taint source, then writes the
 * capture through the write service. Throws what the store throws (STORE_BUSY: the caller spools).
 */
export async function applyToolResult(plan: ToolResultPlan, app: App): Promise<void> {
  const { toolName } = plan;
  if (taints(app.config, toolName)) {
    const originConfig = writePolicyFromConfig(app.config).originConfig;
    const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
    await app.store.markSessionTainted(plan.sessionId, origin, shortName(toolName));
  }
  if ('skip' in plan.capture) return skip(app, toolName, plan.capture.skip);
  const decision = decideToolResult(plan, app.config);
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
    sourceUrl: capture.sourceUrl ?? null,
  });
  if (outcome.decision === 'reject') return skip(app, toolName, outcome.reason);
  app.log.debug('captured', {
    tool: shortName(toolName),
    decision: outcome.decision,
    id: outcome.memory.id,
    origin: outcome.origin,
  });
}

/**
 * A tool result whose payload was refused still entered the model's context: fail closed and taint its
 * session when the payload names one, as content of unknown origin. Applied live and by the spool drain.
 */
export async function taintRefusedToolResult(
  raw: Record<string, unknown>,
  app: App,
): Promise<void> {
  await app.store.bumpCounter('capture.skipped.invalid_payload');
  const sessionId = raw['session_id'];
  if (typeof sessionId === 'string' && sessionId.length > 0 && sessionId.length <= 256) {
    await app.store.markSessionTainted(sessionId, 'unknown', null);
  }
}
