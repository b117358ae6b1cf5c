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
 */
import type { App } from '../app/open-app.js';
import { injectableOrigins } from '../core/injection/injectable.js';
import { planSessionPack, SESSION_RECENT_KINDS } from '../core/injection/session-pack.js';
import type { QuarantineState } from '../core/memory.js';
import { staleMemoryIds } from '../project/stale-memories.js';
import type { SessionStartInput } from './hook-input.js';
import { injectContext, sessionProjectKey } from './inject-context.js';
import type { HookResult } from './run-hook.js';

/** Candidates read per section; the budget keeps far fewer. */
const PINNED_CANDIDATES = 50;
const RECENT_CANDIDATES = 100;

/** Review states that may be injected; the pure gate re-checks every candidate. */
const REVIEWED: readonly QuarantineState[] = ['none', 'approved'];

/** Prints the session's pack as `additionalContext` JSON, or nothing when there is nothing new. */
export async function handleSessionStart(input: SessionStartInput, app: App): Promise<HookResult> {
  const budgetTokens = app.config.injection.sessionStartTokens;
  if (budgetTokens <= 0) return {};
  const projectKey = sessionProjectKey(input.cwd);
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
    app.store.injectedIds(input.session_id),
  ]);
  const title = 'session start';
  const pack = planSessionPack({
    pinned,
    recent,
    checkpoints,
    target: {
      projectKey,
      alreadyInjected: new Set(injected),
      privileges,
      stale: staleMemoryIds([...pinned, ...recent, ...checkpoints], projectKey),
    },
    now: app.clock.now().toISOString(),
    budgetTokens,
    title,
  });
  if (pack.withheld.length > 0) {
    app.log.debug('session start withheld', {
      withheld: pack.withheld.map((w) => ({ id: w.id, reasons: w.reasons })),
    });
  }
  return injectContext(app, {
    hookEvent: 'SessionStart',
    event: 'session-start',
    sessionId: input.session_id,
    source: input.source === undefined || input.source === '' ? null : input.source,
    projectKey,
    items: pack.entries.map((entry) => entry.item),
    budgetTokens,
    title,
  });
}
