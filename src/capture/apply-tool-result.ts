/**
 * Carrying out a tool-result plan (plan-tool-result.ts) against the store: the one place a tool result
 * taints a session or becomes a memory, whichever path it took (live hook, engine hand-off, spool drain).
 * Everything privilege-related (taint, the capture decision, origin) is recomputed here from the event
 * and tool name with the current config, never taken from the plan's text.
 */
import type { App } from '../app/open-app.js';
import type { SkipReason } from '../core/capture/capture-policy.js';
import { composeFix, selectEvidence } from '../core/capture/fix-evidence.js';
import type { Memory } from '../core/memory.js';
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
 * The newest `error` of this command in this session when it is the newest error/fix of the command there
 * (a fix is due), else undefined.
 */
async function dueFailure(
  app: App,
  projectKey: string,
  sessionId: string,
  tag: string,
): Promise<Memory | undefined> {
  const recent = await app.store.listMemories({
    scope: { projectKey, includeGlobal: false },
    kinds: ['error', 'fix'],
    tags: [tag],
    limit: 50,
  });
  const mine = recent.find((memory) => memory.sessionId === sessionId);
  return mine?.kind === 'error' ? mine : undefined;
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
  return (await dueFailure(app, projectKey, sessionId, tag)) !== undefined;
}

/** The command of a planned fix, `fixed: <command> now passes` (core/capture/capture-content.ts). */
function plannedFixCommand(content: string): string | undefined {
  const prefix = 'fixed: ';
  const suffix = ' now passes';
  if (!content.startsWith(prefix) || !content.endsWith(suffix)) return undefined;
  return content.slice(prefix.length, content.length - suffix.length);
}

/** Edit captures of one session read as a fix's evidence; the newest this many (the fix lists 5). */
const EVIDENCE_EDIT_ROWS = 50;

/**
 * The fix text with its evidence (core/capture/fix-evidence.ts): the failure's stored error row and the
 * session's edit captures since it, already redacted by the write path, each lending its text only when
 * its origin and review state allow.
 */
async function fixWithEvidence(
  app: App,
  toolName: string,
  command: string,
  failure: Memory,
  projectKey: string,
  sessionId: string,
): Promise<string> {
  const originConfig = writePolicyFromConfig(app.config).originConfig;
  const { origin } = explainOrigin({ channel: 'tool', toolName }, originConfig);
  const edits = await app.store.listMemories({
    scope: { projectKey, includeGlobal: false },
    kinds: ['capture'],
    sessionIds: [sessionId],
    createdAfter: failure.createdAt,
    // Held rows are listed too, so the fix can say how many were withheld.
    quarantine: ['none', 'pending', 'approved'],
    limit: EVIDENCE_EDIT_ROWS,
  });
  return composeFix(selectEvidence(command, failure, edits, origin));
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
  let content = capture.content;
  if (decision.channel === 'exec_success') {
    const failure = await dueFailure(
      app,
      capture.projectKey,
      plan.sessionId,
      capture.tags[0] ?? '',
    );
    const command = plannedFixCommand(capture.content);
    if (failure === undefined || command === undefined) {
      return skip(app, toolName, 'no_prior_failure');
    }
    content = await fixWithEvidence(
      app,
      toolName,
      command,
      failure,
      capture.projectKey,
      plan.sessionId,
    );
  }

  // The fix's evidence is stored text already; the write path redacts the whole again (W6).
  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'tool', toolName },
    content,
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
