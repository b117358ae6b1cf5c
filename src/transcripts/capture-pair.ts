/**
 * One tool call of a transcript and its result, captured exactly as live capture would have captured
 * them: the pair is read as the PostToolUse envelope of that tool (PostToolUseFailure when the result is
 * an error), classified by the same channel rules (`explainOrigin`, `decideCapture`), summarised by the
 * same builders (`buildCapture`), linked error → fix the same way, and written through the same write
 * service (redaction, privileges, gate). Nothing in the text of the call or its result chooses the
 * origin or whether it is kept.
 *
 * The flood budget is applied in transcript time: an import compresses hours of work into seconds, so
 * the write service's wall-clock window is replaced by the same per-session, per-origin budget counted
 * over the transcript's own timestamps (lines without one all share one window, failing closed).
 */
import type { App } from '../app/open-app.js';
import { fixIsDue } from '../capture/apply-tool-result.js';
import { commandTag } from '../capture/plan-tool-result.js';
import { buildCapture, commandKeyText } from '../core/capture/capture-content.js';
import {
  type CapturePolicyConfig,
  decideCapture,
  type SkipReason,
} from '../core/capture/capture-policy.js';
import { isMemoryError } from '../core/errors.js';
import { type FloodLimit, withinFloodBudget } from '../core/gate/decide-gate.js';
import { explainOrigin, type OriginConfig } from '../core/origin/classify-origin.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import { isMnemoTool } from '../core/origin/own-tools.js';
import { sourceUrlOf } from '../core/origin/source-url.js';
import { resolveProjectKey } from '../project/project-key.js';
import { type RejectReason, type WriteDeps, writeMemory } from '../write/write-memory.js';
import { type MendIndex, mendPair, type MendResult } from './mend-pair.js';
import {
  isInterruptResult,
  resultText,
  type ToolResult,
  type ToolUse,
} from './transcript-entry.js';

/** A tool call with its result and where it happened. */
export interface ToolPair {
  readonly use: ToolUse;
  readonly result: ToolResult;
  readonly sessionId: string | null;
  readonly cwd: string | undefined;
  /** Transcript time of the result (ms), when the line had one. */
  readonly at: number | undefined;
}

/** Why a pair stored nothing: a capture-policy skip, a write refusal, or an import filter. */
export type PairSkipReason = SkipReason | RejectReason | 'before_since';

/** What happened to one pair. `offered` is a dry run's "would be written". */
export type PairOutcome =
  | {
      readonly result: 'stored' | 'merged' | 'offered' | MendResult;
      readonly projectKey: string;
    }
  | { readonly result: 'skipped'; readonly reason: PairSkipReason };

/** Everything the capture of a pair needs, built once per import. */
export interface PairContext {
  readonly app: App;
  /** The write service's deps, with its wall-clock flood budget lifted (see {@link FloodTracker}). */
  readonly deps: WriteDeps;
  readonly originConfig: OriginConfig;
  readonly capture: CapturePolicyConfig;
  readonly flood: FloodTracker;
  /** `--project`: every pair goes to this project key. */
  readonly projectKey?: string;
  /** `--since`, as ms: pairs answered earlier (or at no known time) are skipped. */
  readonly since?: number;
  readonly dryRun: boolean;
  /** cwd → project key (null: no project), so each directory is resolved once. */
  readonly projects: Map<string, string | null>;
  /** A dry run stores nothing, so the error → fix links it sees are kept here: `session|tag` → kind. */
  readonly lastCommandKind: Map<string, 'error' | 'fix'>;
  /** `--mend`: write nothing new; fill provenance on the rows the pairs stored (mend-pair.ts). */
  readonly mend?: MendIndex;
}

/** The per-session, per-origin write budget counted in transcript time. */
export class FloodTracker {
  readonly #limit: FloodLimit;
  readonly #writes = new Map<string, number[]>();
  constructor(limit: FloodLimit) {
    this.#limit = limit;
  }

  /** Whether one more write fits at `at` (undefined: the shared untimed window). */
  allows(sessionId: string | null, origin: OriginClass, at: number | undefined): boolean {
    const times = this.#writes.get(`${sessionId ?? ''}|${origin}`) ?? [];
    const windowMs = this.#limit.windowMinutes * 60_000;
    const recent =
      at === undefined ? times.length : times.filter((t) => t > at - windowMs && t <= at).length;
    return withinFloodBudget(origin, recent, this.#limit);
  }

  record(sessionId: string | null, origin: OriginClass, at: number | undefined): void {
    const key = `${sessionId ?? ''}|${origin}`;
    const times = this.#writes.get(key) ?? [];
    times.push(at ?? 0);
    // Only the window matters; keep the list short on long sessions.
    if (times.length > 10_000) times.splice(0, times.length - 10_000);
    this.#writes.set(key, times);
  }
}

function projectOf(ctx: PairContext, cwd: string | undefined): string | null {
  if (ctx.projectKey !== undefined) return ctx.projectKey;
  if (cwd === undefined || cwd === '') return null;
  const known = ctx.projects.get(cwd);
  if (known !== undefined) return known;
  let key: string | null;
  try {
    key = resolveProjectKey(cwd);
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    key = null; // The directory is gone (or never existed here): nothing can say which project it was.
  }
  ctx.projects.set(cwd, key);
  return key;
}

/** Whether the run itself tracks the error → fix links: it writes nothing the store could tell. */
function tracksLinks(ctx: PairContext): boolean {
  return ctx.dryRun || ctx.mend !== undefined;
}

async function fixDue(ctx: PairContext, projectKey: string, pair: ToolPair, tag: string) {
  // A dry run wrote nothing, so the failures it saw live only in the run; a real run asks the store,
  // as the live hook does. A mend reads every transcript whole, in order, so the run alone knows the
  // links as the first import saw them (the store already holds the fix that followed).
  const inRun = tracksLinks(ctx)
    ? ctx.lastCommandKind.get(`${pair.sessionId ?? ''}|${tag}`)
    : undefined;
  if (inRun !== undefined) return inRun === 'error';
  if (ctx.mend !== undefined) return false;
  return pair.sessionId !== null && (await fixIsDue(ctx.app, projectKey, pair.sessionId, tag));
}

/** Captures one pair. Throws only what the store raises. */
export async function capturePair(ctx: PairContext, pair: ToolPair): Promise<PairOutcome> {
  const skip = (reason: PairSkipReason): PairOutcome => ({ result: 'skipped', reason });
  if (ctx.since !== undefined && (pair.at === undefined || pair.at < ctx.since)) {
    return skip('before_since');
  }
  const toolName = pair.use.name;
  const origin = explainOrigin({ channel: 'tool', toolName }, ctx.originConfig);
  const failure = pair.result.isError;
  const decision = decideCapture(
    {
      event: failure ? 'PostToolUseFailure' : 'PostToolUse',
      toolName,
      origin,
      ownTool: isMnemoTool(toolName, ctx.originConfig),
      interrupted: failure ? isInterruptResult(pair.result) : undefined,
    },
    ctx.capture,
  );
  if (decision.action === 'skip') return skip(decision.reason);
  const projectKey = projectOf(ctx, pair.cwd);
  if (projectKey === null) return skip('no_project');

  let tags: string[] = [];
  if (decision.channel === 'exec_failure' || decision.channel === 'exec_success') {
    const command = commandKeyText(pair.use.input);
    if (command === undefined) return skip('missing_fields');
    const tag = commandTag(command);
    tags = [tag];
    if (decision.channel === 'exec_success' && !(await fixDue(ctx, projectKey, pair, tag))) {
      return skip('no_prior_failure');
    }
  }
  const built = buildCapture(
    decision.channel,
    {
      toolName,
      toolInput: pair.use.input,
      // The line's structured `toolUseResult` is what PostToolUse calls `tool_response`.
      toolResponse: failure ? undefined : (pair.result.structured ?? pair.result.content),
      error: failure ? resultText(pair.result.content) : undefined,
      cwd: pair.cwd ?? '',
    },
    ctx.capture.minChars,
  );
  if (!built.ok) return skip(built.reason);
  if (!ctx.flood.allows(pair.sessionId, origin.origin, pair.at)) return skip('flood_budget');

  // The page a fetch read and the transcript's time, from the envelope fields as live capture takes them.
  const sourceUrl = sourceUrlOf(pair.use.input['url']);
  const capturedAt = pair.at === undefined ? undefined : new Date(pair.at).toISOString();
  if (tracksLinks(ctx)) {
    const tag = tags[0];
    if (tag !== undefined && (built.kind === 'error' || built.kind === 'fix')) {
      ctx.lastCommandKind.set(`${pair.sessionId ?? ''}|${tag}`, built.kind);
    }
  }
  if (ctx.dryRun) {
    ctx.flood.record(pair.sessionId, origin.origin, pair.at);
    return { result: 'offered', projectKey };
  }
  if (ctx.mend !== undefined) {
    if (pair.sessionId === null) return { result: 'unknown', projectKey };
    const result = await mendPair(ctx.app.store, ctx.mend, {
      projectKey,
      sessionId: pair.sessionId,
      kind: built.kind,
      origin: origin.origin,
      content: built.content,
      toolName,
      sourceUrl,
      capturedAt,
    });
    // A row of this session is one the first import stored: it spent the budget then, too.
    if (result !== 'unknown') ctx.flood.record(pair.sessionId, origin.origin, pair.at);
    return { result, projectKey };
  }
  const outcome = await writeMemory(ctx.deps, {
    envelope: { channel: 'tool', toolName },
    content: built.content,
    projectKey,
    kind: built.kind,
    tags,
    sessionId: pair.sessionId,
    originTool: toolName.slice(0, 128),
    // Anchored against the project as it is now: an import replays old sessions, so files that changed
    // since are anchored as they are today, not as they were then.
    workingDir: pair.cwd ?? null,
    sourceUrl,
    ...(capturedAt === undefined ? {} : { capturedAt }),
  });
  if (outcome.decision === 'reject') return skip(outcome.reason);
  if (outcome.decision === 'store') ctx.flood.record(pair.sessionId, origin.origin, pair.at);
  return { result: outcome.decision === 'store' ? 'stored' : 'merged', projectKey };
}
