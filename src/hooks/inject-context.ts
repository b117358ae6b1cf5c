/**
 * The last step of every proactive injection (session start, prompt recall): frame the chosen memories
 * with the one renderer under a fresh crypto-random nonce and the token budget, record the injection in
 * the ledger, and only then hand back the `hookSpecificOutput.additionalContext` JSON Claude Code reads
 * (integration reference §1.4, §7.11). Recording first means a failed ledger write injects nothing: what
 * the model saw is always in the ledger.
 */
import { randomBytes } from 'node:crypto';

import type { App } from '../app/open-app.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import type { RenderItem } from '../core/render/render-memories.js';
import { renderMemoriesWithinBudget } from '../core/render/render-within-budget.js';
import { resolveProjectKey } from '../project/project-key.js';
import type { InjectionEvent, WithheldEntry } from '../store/store.js';
import type { HookResult } from './run-hook.js';

/** The Claude Code events whose `additionalContext` mnemo fills. */
export type ContextEvent = 'SessionStart' | 'UserPromptSubmit';

/** A fresh frame nonce: 128 bits from the OS, lower-case hex, new for every emission (threat model R2). */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The exact stdout for context on `event`: one JSON object and a newline. */
export function contextOutput(event: ContextEvent, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

/**
 * The session's project key, or null (global memories only) when the payload's `cwd` does not resolve,
 * e.g. a deleted directory. Never a guess: an unresolved project sees no project's memories (R4).
 */
export function sessionProjectKey(cwd: string): string | null {
  try {
    return resolveProjectKey(cwd);
  } catch (error) {
    if (isMemoryError(error, 'INVALID_INPUT')) return null;
    throw error;
  }
}

/** How an injection is answered: by the hook itself, or by the engine on a hook's behalf. */
export interface InjectOptions {
  /**
   * Asked just before the ledger is written; false means the hook has stopped waiting for this answer
   * (the engine is late), so nothing is recorded and the injection ends with TIMEOUT.
   */
  readonly stillWanted?: () => boolean;
}

export interface Injection {
  readonly hookEvent: ContextEvent;
  readonly event: InjectionEvent;
  readonly sessionId: string;
  readonly source: string | null;
  readonly projectKey: string | null;
  /** In priority order; the renderer keeps the first ones that fit. */
  readonly items: readonly RenderItem[];
  /** The ids of `items` rendered as one-line index entries rather than in full. */
  readonly indexIds?: ReadonlySet<string>;
  /** Candidates the gate kept out, recorded in the ledger even when nothing is injected. */
  readonly withheld?: readonly WithheldEntry[];
  readonly budgetTokens: number;
  /** The frame's context line, e.g. `session start`. */
  readonly title: string;
}

/**
 * Renders, records and returns the hook output; `{}` when nothing fits the budget. Withheld candidates
 * are recorded even then (a ledger row with no injected ids), so nothing is withheld silently.
 */
export async function injectContext(
  app: App,
  injection: Injection,
  options: InjectOptions = {},
): Promise<HookResult> {
  if (injection.budgetTokens <= 0) return {};
  const withheld = injection.withheld ?? [];
  const rendered =
    injection.items.length === 0
      ? undefined
      : renderMemoriesWithinBudget(injection.items, {
          nonce: newNonce(),
          title: injection.title,
          now: app.clock.now().toISOString(),
          budgetTokens: injection.budgetTokens,
        });
  const included = rendered?.included ?? [];
  if (included.length === 0 && withheld.length === 0) return {};
  if (options.stillWanted?.() === false) {
    throw new MemoryError('TIMEOUT', 'the hook stopped waiting; nothing was injected or recorded');
  }
  await app.store.recordInjection({
    sessionId: injection.sessionId,
    event: injection.event,
    source: injection.source,
    projectKey: injection.projectKey,
    memoryIds: included,
    indexIds: included.filter((id) => injection.indexIds?.has(id) === true),
    tokens: included.length === 0 ? 0 : (rendered?.tokens ?? 0),
    withheld,
  });
  if (rendered === undefined || included.length === 0) {
    app.log.debug('injected nothing; withheld recorded', {
      event: injection.event,
      withheld: withheld.length,
    });
    return {};
  }
  app.log.debug('injected', {
    event: injection.event,
    withheld: withheld.length,
    ids: rendered.included,
    omitted: rendered.omitted.length,
    tokens: rendered.tokens,
    truncated: rendered.truncated,
  });
  return { stdout: contextOutput(injection.hookEvent, rendered.text) };
}
