/**
 * `mnemo hook session-start`: when a session starts, resumes, or restarts after /clear or compaction,
 * inject what it should know: pinned memories, the most relevant recent decisions, fixes and errors, and
 * the project's last checkpoint (core/injection/session-pack.ts), scoped to the project of the payload's
 * `cwd` plus global memories, eligible origins only, within `injection.sessionStartTokens`.
 *
 * Source-aware through the ledger (threat model R9): the first SessionStart of a session gets the full
 * pack; a later one (`resume`, `compact`, a repeated `startup`) only what this session has not been
 * shown yet, which is usually nothing or a new checkpoint. `/clear` starts a new session id, so it gets a
 * full pack. Injecting is not use: no access or heat is recorded.
 *
 * Anchors (threat model R5): the candidates' cited files are checked against the `cwd`'s working tree
 * within a hook's budget; a stale memory is injected with a label and ranked lower, one whose every
 * cited file was deleted is withheld, and the ledger entry lists every candidate withheld and why.
 */
import { stalenessFrom } from '../anchors/check-staleness.js';
import { resolveProjectRoot } from '../anchors/project-root.js';
import { type CheckBudget, hookBudget } from '../anchors/verify-anchors.js';
import type { App } from '../app/open-app.js';
import type { MemoryStaleness } from '../core/anchors/staleness.js';
import { injectableOrigins } from '../core/injection/injectable.js';
import {
  planSessionPack,
  SESSION_RECENT_KINDS,
  type SessionPack,
} from '../core/injection/session-pack.js';
import type { MemoryId, QuarantineState } from '../core/memory.js';
import { heldByPage } from '../core/pages/held-by-page.js';
import { readLoadedPage } from '../pages/loaded-page.js';
import type { WithheldEntry } from '../store/store.js';
import type { SessionStartInput } from './hook-input.js';
import { injectContext, type InjectOptions, sessionProjectKey } from './inject-context.js';
import type { HookResult } from './run-hook.js';

/** Candidates read per section; the budget keeps far fewer. */
const PINNED_CANDIDATES = 50;
const RECENT_CANDIDATES = 100;

/** Review states that may be injected; the pure gate re-checks every candidate. */
const REVIEWED: readonly QuarantineState[] = ['none', 'approved'];

/** One session start's plan: the pack, and the staleness it was planned with. */
export interface SessionStartPlan {
  readonly projectKey: string | null;
  readonly pack: SessionPack;
  readonly staleness: ReadonlyMap<MemoryId, MemoryStaleness>;
  /** Candidates considered (pinned, recent and the checkpoint, before the gate). */
  readonly candidates: number;
  /** The project page file Claude Code reads, when it holds some of the pack (`pack.onPage`). */
  readonly pageFile: string | null;
}

export interface SessionStartRequest {
  readonly cwd: string;
  /** The session's id, whose ledger decides what was already shown; null plans a first start. */
  readonly sessionId: string | null;
  readonly budgetTokens: number;
  readonly budget: CheckBudget;
  /** Cache anchor checks and backfills; doctor plans read-only. */
  readonly persist: boolean;
}

/**
 * Plans what a session start in `cwd` injects and withholds. Shared by the hook and `mnemo doctor`, so
 * what doctor reports is what session start does.
 */
export async function planSessionStart(
  app: App,
  request: SessionStartRequest,
): Promise<SessionStartPlan> {
  const projectKey = sessionProjectKey(request.cwd);
  const scope = { projectKey, includeGlobal: true };
  const privileges = { proactiveLocal: app.config.injection.proactiveLocal };
  const eligible = { scope, origins: injectableOrigins(privileges), quarantine: REVIEWED };
  const [pinned, recent, checkpoints, injected] = await Promise.all([
    app.store.listMemories({ ...eligible, pinned: true, limit: PINNED_CANDIDATES }),
    app.store.listMemories({ ...eligible, kinds: SESSION_RECENT_KINDS, limit: RECENT_CANDIDATES }),
    // The newest checkpoint whatever its origin: if it may not be injected, no older one stands in.
    projectKey === null
      ? Promise.resolve([])
      : app.store.listMemories({
          scope: { projectKey, includeGlobal: false },
          kinds: ['checkpoint'],
          limit: 1,
        }),
    request.sessionId === null ? Promise.resolve([]) : app.store.injectedIds(request.sessionId),
  ]);
  const candidates = [...pinned, ...recent, ...checkpoints];
  const staleness = await stalenessFrom(
    app,
    projectKey,
    request.cwd,
    candidates,
    request.budget,
    request.persist,
  );
  // The page in CLAUDE.md is read by Claude Code itself: what it holds verbatim is not repeated.
  const root = projectKey === null ? undefined : resolveProjectRoot(request.cwd)?.dir;
  const page = root === undefined ? undefined : readLoadedPage(root, app.log);
  const pack = planSessionPack({
    pinned,
    recent,
    checkpoints,
    target: { projectKey, alreadyInjected: new Set(injected), privileges, staleness },
    now: app.clock.now().toISOString(),
    budgetTokens: request.budgetTokens,
    title: 'session start',
    ...(page === undefined ? {} : { onPage: heldByPage(page.parsed, candidates) }),
  });
  return {
    projectKey,
    pack,
    staleness,
    candidates: new Set(candidates.map((m) => m.id)).size,
    pageFile: pack.onPage.length > 0 && page !== undefined ? page.file : null,
  };
}

/** The frame's context line: a one-line pointer to the page when it holds part of the pack. */
export function sessionStartTitle(plan: SessionStartPlan): string {
  const held = plan.pack.onPage.length;
  if (plan.pageFile === null || held === 0) return 'session start';
  return `session start; ${held} more ${held === 1 ? 'memory' : 'memories'} of this project ${held === 1 ? 'is' : 'are'} on its page in ${plan.pageFile}, not repeated here`;
}

/** Prints the session's pack as `additionalContext` JSON, or nothing when there is nothing new. */
export async function handleSessionStart(
  input: SessionStartInput,
  app: App,
  options: InjectOptions = {},
): Promise<HookResult> {
  const budgetTokens = app.config.injection.sessionStartTokens;
  if (budgetTokens <= 0) return {};
  const plan = await planSessionStart(app, {
    cwd: input.cwd,
    sessionId: input.session_id,
    budgetTokens,
    budget: hookBudget(),
    persist: true,
  });
  const withheld = reportedWithheld(plan.pack);
  if (withheld.length > 0) app.log.debug('session start withheld', { withheld });
  return injectContext(
    app,
    {
      hookEvent: 'SessionStart',
      event: 'session-start',
      sessionId: input.session_id,
      source: input.source === undefined || input.source === '' ? null : input.source,
      projectKey: plan.projectKey,
      items: plan.pack.entries.map((entry) => entry.item),
      withheld,
      budgetTokens,
      title: sessionStartTitle(plan),
    },
    options,
  );
}

/**
 * The withheld candidates the ledger records: all of them except those withheld only because this
 * session was already shown them (the ledger has those already).
 */
export function reportedWithheld(pack: SessionPack): WithheldEntry[] {
  return pack.withheld
    .filter((w) => w.reasons.some((reason) => reason !== 'already_injected'))
    .map((w) => ({ id: w.id, reasons: [...w.reasons] }));
}
