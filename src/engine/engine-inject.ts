/**
 * The engine's side of `inject`: a session-start or user-prompt-submit hook that finds the engine running
 * sends it the payload instead of opening the store itself, and prints what the engine answers. The
 * handler is the hooks' own code (hooks/engine-injection.ts: the same pack planning, injection gate,
 * renderer and ledger as the direct path), handed to the engine by `mnemo serve`, because engine/ never
 * imports the hooks. An engine started without one answers UNSUPPORTED and the hook reads the store.
 */
import type { App } from '../app/open-app.js';
import type { RankedHit } from '../retrieval/retrieve.js';
import type { EngineRecallRequest } from './engine-call.js';
import type { EngineInjectArgs, InjectResult } from './engine-protocol.js';

/** Hybrid recall with the engine's embedder and reranker, as the `recall` op runs it. */
export type EngineSearch = (request: EngineRecallRequest) => Promise<RankedHit[]>;

/** Answers one `inject` request with the engine's app. */
export type EngineInjector = (
  args: EngineInjectArgs,
  app: App,
  search: EngineSearch,
) => Promise<InjectResult>;
