/**
 * Prompt-time recall for `mnemo hook user-prompt-submit`: retrieve against the prompt (answered by a
 * running engine, hybrid recall with its embedder; else by the hook, with the lexical and identifier legs
 * only, since hooks never load a model), keep the candidates that pass the injection gate
 * and clear the calibrated relevance threshold (core/injection/prompt-recall.ts), skip what this session
 * was already shown, and inject them within `injection.promptTokens`. Usually nothing clears the bar and
 * the hook prints nothing. The prompt is read, never stored or logged.
 */
import { stalenessFrom } from '../anchors/check-staleness.js';
import { hookBudget } from '../anchors/verify-anchors.js';
import type { App } from '../app/open-app.js';
import { injectableOrigins, toRenderItem } from '../core/injection/injectable.js';
import {
  hasTopic,
  INDEX_FLAG,
  INDEX_TITLE,
  indexText,
  selectPromptRecall,
} from '../core/injection/prompt-recall.js';
import { MAX_RELEVANCE_CHARS } from '../core/injection/prompt-relevance.js';
import type { QuarantineState } from '../core/memory.js';
import { demoteStale } from '../core/ranking/stale-rank.js';
import { engineRecall, type EngineRecallRequest } from '../engine/engine-call.js';
import { type RankedHit, retrieve } from '../retrieval/retrieve.js';
import type { UserPromptSubmitInput } from './hook-input.js';
import { injectContext, type InjectOptions, sessionProjectKey } from './inject-context.js';
import type { HookResult } from './run-hook.js';

/** Retrieval candidates scored for relevance; room for a long session's already-injected ones. */
export const PROMPT_CANDIDATES = 20;

/** How long the hook waits for a running engine's hybrid candidates before reading the store itself. */
export const ENGINE_WAIT_MS = 300;

const REVIEWED: readonly QuarantineState[] = ['none', 'approved'];

/** How prompt recall finds its candidates, and who answers. */
export interface PromptRecallOptions extends InjectOptions {
  /**
   * The search. Default: the running engine's hybrid recall (`askEngine`), else the store's lexical and
   * identifier legs. The engine passes its own search when it answers the hook.
   */
  readonly search?: (request: EngineRecallRequest) => Promise<RankedHit[]>;
  /** Ask a running engine for its candidates first (default true; false once it was too slow). */
  readonly askEngine?: boolean;
}

/**
 * The hook's own search: a running engine adds the vector leg to the candidates; without one (or when it
 * is slow) the hook reads the store directly.
 */
function hookSearch(app: App, askEngine: boolean) {
  return async (request: EngineRecallRequest): Promise<RankedHit[]> =>
    (askEngine
      ? await engineRecall(app.config, request, ENGINE_WAIT_MS, { log: app.log })
      : undefined) ?? (await retrieve({ store: app.store, clock: app.clock }, request));
}

/** Injects the memories relevant to the prompt as `additionalContext` JSON, or returns `{}`. */
export async function recallForPrompt(
  input: UserPromptSubmitInput,
  app: App,
  options: PromptRecallOptions = {},
): Promise<HookResult> {
  const budgetTokens = app.config.injection.promptTokens;
  // The head of a pasted log says what it is about; the relevance measure reads no further either.
  const prompt = (input.prompt ?? '').slice(0, MAX_RELEVANCE_CHARS);
  if (budgetTokens <= 0 || !hasTopic(prompt)) return {};
  const projectKey = sessionProjectKey(input.cwd);
  const privileges = { proactiveLocal: app.config.injection.proactiveLocal };
  const request = {
    query: prompt,
    scope: { projectKey, includeGlobal: true },
    limit: PROMPT_CANDIDATES,
    filters: { origins: injectableOrigins(privileges), quarantine: REVIEWED },
  };
  // Whoever searches, the calibrated relevance of each hit (core/ranking/relevance.ts) decides what is
  // injected and how: the engine's hits carry the dense evidence, the hook's own only the word legs'.
  const hits = await (options.search ?? hookSearch(app, options.askEngine !== false))(request);
  if (hits.length === 0) return {};
  const [injected, indexed] = await Promise.all([
    app.store.injectedIds(input.session_id),
    app.store.indexedIds(input.session_id),
  ]);
  const memories = hits.map((hit) => hit.memory);
  const staleness = await stalenessFrom(app, projectKey, input.cwd, memories, hookBudget());
  const recall = selectPromptRecall({
    candidates: demoteStale(hits, (id) => staleness.get(id)),
    target: {
      projectKey,
      alreadyInjected: new Set(injected),
      alreadyIndexed: new Set(indexed),
      privileges,
      staleness,
    },
  });
  app.log.debug('prompt recall', {
    candidates: hits.length,
    best: Math.round(recall.best * 1000) / 1000,
    chosen: recall.chosen.map((c) => `${c.memory.id}:${c.tier}`),
  });
  return injectContext(
    app,
    {
      hookEvent: 'UserPromptSubmit',
      event: 'prompt-recall',
      sessionId: input.session_id,
      source: null,
      projectKey,
      items: recall.chosen.map((choice) => {
        const item = toRenderItem(choice.memory, staleness.get(choice.memory.id));
        // An index entry: the header and the first words, quoted like any stored text.
        return choice.tier === 'full'
          ? item
          : {
              ...item,
              content: indexText(item.content),
              flags: [INDEX_FLAG, ...(item.flags ?? [])],
            };
      }),
      indexIds: new Set(recall.chosen.filter((c) => c.tier === 'index').map((c) => c.memory.id)),
      budgetTokens,
      title: recall.chosen.some((c) => c.tier === 'index') ? INDEX_TITLE : 'prompt recall',
    },
    options,
  );
}
