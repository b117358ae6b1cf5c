/**
 * The engine's side of `inject`: a session-start or user-prompt-submit hook that finds the engine running
 * sends it the payload instead of opening the store itself, and prints what the engine answers. The
 * handler is the hooks' own code (hooks/engine-injection.ts: the same pack planning, injection gate,
 * renderer and ledger as the direct path), handed to the engine by `mnemo serve`, because engine/ never
 * imports the hooks. An engine started without one answers UNSUPPORTED and the hook reads the store.
 */
import type { App } from '../app/open-app.js';
import type { RankedHit } from '../retrieval/retrieve.js';
import type { SpoolEntry } from '../spool/spool-record.js';
import type { EngineRecallRequest } from './engine-call.js';
import type {
  CaptureResult,
  EngineHookArgs,
  EngineInjectArgs,
  HookForwardResult,
  InjectResult,
} from './engine-protocol.js';

/** Hybrid recall with the engine's embedder and reranker, as the `recall` op runs it. */
export type EngineSearch = (request: EngineRecallRequest) => Promise<RankedHit[]>;

/** Answers one `inject` request with the engine's app. */
export type EngineInjector = (
  args: EngineInjectArgs,
  app: App,
  search: EngineSearch,
) => Promise<InjectResult>;

/** What a forwarded hook may use of the engine: its hybrid search and its capture hand-off. */
export interface EngineHookTools {
  search: EngineSearch;
  /** Applies a capture (or spools it when the store is busy), as the `capture` op does. */
  capture: (entry: SpoolEntry) => Promise<CaptureResult>;
}

/** Answers one forwarded hook (`hook`) with the engine's app, as the hook process would have. */
export type EngineHookRunner = (
  args: EngineHookArgs,
  app: App,
  tools: EngineHookTools,
) => Promise<HookForwardResult>;
