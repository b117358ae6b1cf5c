/**
 * Writing a session checkpoint from a hook (`pre-compact`, `session-end`): read the session's memories
 * from the store and the user's prompts from the transcript, summarise them with the pure
 * `buildCheckpoint`, and store the result through the write service as kind `checkpoint`, with the
 * `derived` channel so its origin is the least trusted of its sources (redaction, review state and the
 * flood budget apply as to any write).
 *
 * One active checkpoint per session: a later checkpoint of the same session (PreCompact, then
 * SessionEnd; or several compactions) supersedes the earlier one, which stays in history. So "the last
 * checkpoint of a project" is its newest active memory of kind `checkpoint`.
 */
import type { App } from '../app/open-app.js';
import {
  buildCheckpoint,
  type CheckpointEvent,
  SUMMARISED_KINDS,
} from '../core/checkpoint/build-checkpoint.js';
import { isMemoryError } from '../core/errors.js';
import { type Memory, normaliseContent } from '../core/memory.js';
import { sanitiseForStorage } from '../core/redact/redact-secrets.js';
import { resolveProjectKey } from '../project/project-key.js';
import { readSessionPrompts, type SessionPrompts } from '../transcripts/read-session-prompts.js';
import { supersedeMemory } from '../write/supersede-memory.js';
import { writeMemory, type WriteOutcome } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';

/** What a checkpoint hook passes in, from its payload. */
export interface CheckpointRequest {
  readonly event: CheckpointEvent;
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath?: string;
  /** The PreCompact trigger or the SessionEnd reason, as the host sent it. */
  readonly detail?: string;
  readonly compactInstructions?: string | null;
}

/** How many of the project's newest memories are scanned for the session's own. */
export const SESSION_SCAN_LIMIT = 2000;
/** The `originTool` label of hook-written checkpoints; how a later checkpoint finds the one it replaces. */
export function checkpointTool(event: CheckpointEvent): string {
  return `hook:${event}`;
}
const CHECKPOINT_TOOLS = new Set([checkpointTool('pre-compact'), checkpointTool('session-end')]);
/** The tag every hook-written checkpoint carries. */
export const CHECKPOINT_TAG = 'auto-checkpoint';

/** A host-supplied word (trigger, reason) as shown in the checkpoint: lower-case letters and `_` only. */
export function eventDetail(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  return /^[a-z_]{1,32}$/.test(raw) ? raw : 'other';
}

async function count(app: App, outcome: string): Promise<void> {
  await app.store.bumpCounter(`checkpoint.${outcome}`);
}

async function prompts(app: App, request: CheckpointRequest): Promise<SessionPrompts | undefined> {
  if (request.transcriptPath === undefined || request.transcriptPath === '') return undefined;
  try {
    const read = await readSessionPrompts(request.transcriptPath, request.sessionId);
    if (read.timedOut) {
      app.log.warn('checkpoint: transcript read stopped at its time budget', {
        bytesRead: read.bytesRead,
      });
    }
    return read;
  } catch (error) {
    // The store's memories still make a checkpoint; the missing goals are logged, not fatal.
    app.log.warn('checkpoint: transcript not read', {
      error: isMemoryError(error) ? error.message : String(error).slice(0, 300),
    });
    return undefined;
  }
}

/** Writes (or replaces) the checkpoint of the session. Prints nothing; store errors propagate. */
export async function writeSessionCheckpoint(
  app: App,
  request: CheckpointRequest,
): Promise<WriteOutcome | undefined> {
  let projectKey: string;
  try {
    projectKey = resolveProjectKey(request.cwd);
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    await count(app, 'skipped.no_project');
    return undefined;
  }
  const recent = await app.store.listMemories({
    scope: { projectKey, includeGlobal: false },
    kinds: [...SUMMARISED_KINDS, 'checkpoint'],
    // Rejected memories are left out: a person's rejection must not come back inside a summary.
    quarantine: ['none', 'pending', 'approved'],
    limit: SESSION_SCAN_LIMIT,
  });
  const mine = recent.filter((memory) => memory.sessionId === request.sessionId);
  const previous = mine.find(
    (m) => m.kind === 'checkpoint' && m.originTool !== null && CHECKPOINT_TOOLS.has(m.originTool),
  );
  const read = await prompts(app, request);
  const built = buildCheckpoint({
    sessionId: request.sessionId,
    event: request.event,
    detail: eventDetail(request.detail),
    memories: mine,
    prompts: read?.prompts ?? [],
    promptsPartial: read?.partial,
    compactInstructions: request.compactInstructions ?? undefined,
  });
  if (built === undefined) {
    await count(app, 'skipped.empty');
    return undefined;
  }
  if (previous !== undefined && sameCheckpoint(previous, built.content, built.origin)) {
    await count(app, 'skipped.unchanged');
    return undefined;
  }
  const deps = writeDepsFrom(app);
  const write = {
    envelope: { channel: 'derived', sources: built.sources } as const,
    content: built.content,
    projectKey,
    kind: 'checkpoint' as const,
    tags: [CHECKPOINT_TAG, request.event],
    sessionId: request.sessionId,
    originTool: checkpointTool(request.event),
    workingDir: request.cwd,
  };
  const outcome =
    previous === undefined
      ? await writeMemory(deps, write)
      : await supersedeMemory(deps, previous, write);
  await count(
    app,
    outcome.decision === 'reject'
      ? `rejected.${outcome.reason}`
      : outcome.decision === 'store'
        ? 'stored'
        : 'merged',
  );
  app.log.info('checkpoint', {
    event: request.event,
    decision: outcome.decision,
    origin: outcome.origin,
    items: built.items,
    replaced: previous?.id ?? null,
    id: outcome.decision === 'reject' ? null : outcome.memory.id,
  });
  return outcome;
}

/** True when `previous` already holds this text (as it would be stored) with this origin. */
function sameCheckpoint(previous: Memory, content: string, origin: string): boolean {
  try {
    return (
      normaliseContent(sanitiseForStorage(content).text) === previous.content &&
      previous.origin === origin
    );
  } catch {
    return false;
  }
}
