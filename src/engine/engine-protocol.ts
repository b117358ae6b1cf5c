/**
 * The engine's wire protocol: newline-delimited JSON over a Unix socket (a named pipe on Windows), one
 * request per line, one response line per request, in order.
 *
 *   request  {"v":1,"id":7,"token":"<64 hex>","op":"recall","args":{...}}
 *   response {"v":1,"id":7,"ok":true,"result":{...}}
 *            {"v":1,"id":7,"ok":false,"error":{"code":"UNAUTHORIZED","message":"..."}}
 *
 * Every request carries the per-install token; the token is checked before the version, the op or the
 * arguments are looked at, and a wrong one ends the connection. Lines are bounded: a request over
 * {@link MAX_REQUEST_BYTES} is refused with TOO_LARGE and the connection closed; a client stops reading
 * a response over MAX_RESPONSE_BYTES (engine-wire.ts). A new version adds ops or fields; `v` changes only when
 * an existing op changes meaning, and the engine answers an unknown `v` with UNSUPPORTED_VERSION.
 *
 * Schemas use valibot: hooks are clients, and every hook process pays for what it loads.
 */
import * as v from 'valibot';

import { MAX_INJECTION_TOKENS } from '../config/config.js';
import { MAX_LIMIT } from '../config/limits.js';
import { GATE_REASONS, MEMORY_KINDS, QUARANTINE_STATES, VISIBILITIES } from '../core/memory.js';
import { TRUST_BANDS } from '../core/origin/origin-class.js';
import { type SpoolEntry, spoolEntrySchema } from '../spool/spool-record.js';
import { tokensMatch } from './engine-token.js';
import {
  ENGINE_PROTOCOL_VERSION,
  FORWARDED_HOOK_EVENTS,
  MAX_INJECT_OUTPUT_CHARS,
  MAX_REQUEST_BYTES,
} from './engine-wire.js';

/** Longest recall query accepted (the MCP recall tool's own limit is smaller). */
export const MAX_QUERY_CHARS = 8192;

/** The operations. */
export const ENGINE_OPS = ['ping', 'recall', 'capture', 'inject', 'hook', 'drain', 'stop'] as const;
export type EngineOp = (typeof ENGINE_OPS)[number];

/** Error codes of the protocol itself; handler failures carry the MemoryError code (e.g. STORE_BUSY). */
export type EngineProtocolErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'UNSUPPORTED_VERSION'
  | 'TOO_LARGE'
  | 'INTERNAL';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const integer = () => v.pipe(v.number(), v.integer());
const int = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const requestId = v.union([text(64), integer()]);

// Only the id is required here: a missing token must still be answered as UNAUTHORIZED.
const envelope = v.object({
  v: v.optional(v.unknown()),
  id: requestId,
  token: v.optional(v.unknown()),
  op: v.optional(v.unknown()),
  args: v.optional(v.unknown()),
});

/** Arguments of `recall`: a subset of retrieve()'s request, all JSON. */
export const recallArgsSchema = v.strictObject({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_QUERY_CHARS)),
  scope: v.strictObject({
    projectKey: v.nullable(text(4096)),
    includeGlobal: v.boolean(),
  }),
  limit: int(1, MAX_LIMIT),
  filters: v.optional(
    v.strictObject({
      kinds: v.optional(
        v.pipe(v.array(v.picklist(MEMORY_KINDS)), v.maxLength(MEMORY_KINDS.length)),
      ),
      tags: v.optional(v.pipe(v.array(text(256)), v.maxLength(32))),
      origins: v.optional(v.pipe(v.array(text(64)), v.maxLength(16))),
      createdAfter: v.optional(text(64)),
      createdBefore: v.optional(text(64)),
      includeSuperseded: v.optional(v.boolean()),
      quarantine: v.optional(
        v.pipe(v.array(v.picklist(QUARANTINE_STATES)), v.maxLength(QUARANTINE_STATES.length)),
      ),
    }),
  ),
  mmr: v.optional(
    v.union([
      v.boolean(),
      v.strictObject({ lambda: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))) }),
    ]),
  ),
  recordAccess: v.optional(v.union([v.boolean(), int(0, MAX_LIMIT)])),
  depth: v.optional(int(1, MAX_LIMIT)),
});
/** The arguments of `recall`. */
export type EngineRecallArgs = v.InferOutput<typeof recallArgsSchema>;

/** The hooks whose injection the engine can answer (`inject`). */
export const INJECT_EVENTS = ['session-start', 'user-prompt-submit'] as const;

/**
 * Arguments of `inject`: a session-start or user-prompt-submit payload (re-validated by the engine with
 * the hook's own schema), the hook's injection settings (it read the config file just now; the engine's
 * copy may be older), and the time (ms since the epoch) after which the hook no longer waits: past it
 * the engine records nothing in the ledger and answers `late`.
 */
export const injectArgsSchema = v.strictObject({
  event: v.picklist(INJECT_EVENTS),
  input: v.record(v.string(), v.unknown()),
  injection: v.strictObject({
    sessionStartTokens: int(0, MAX_INJECTION_TOKENS),
    promptTokens: int(0, MAX_INJECTION_TOKENS),
    proactiveLocal: v.boolean(),
  }),
  answerBy: integer(),
});
/** The arguments of `inject`. */
export type EngineInjectArgs = v.InferOutput<typeof injectArgsSchema>;

/** What `inject` answers: the hook's stdout (null: print nothing), or `late` (nothing was recorded). */
export const injectResultSchema = v.union([
  v.strictObject({ stdout: v.nullable(v.pipe(v.string(), v.maxLength(MAX_INJECT_OUTPUT_CHARS))) }),
  v.strictObject({ late: v.literal(true) }),
]);
/** The engine's answer to `inject`. */
export type InjectResult = v.InferOutput<typeof injectResultSchema>;

/** Environment variables a forwarded hook sends: mnemo's own, which its config reads. */
const HOOK_ENV_NAME = /^MNEMO_[A-Z0-9_]{1,64}$/;
const MAX_HOOK_ENV_ENTRIES = 64;

/**
 * Arguments of `hook`: a whole hook invocation forwarded by the hook process (hooks/forward-hook.ts):
 * its event, its stdin as read (parsed, bounded and validated by the engine as the hook would), the
 * mnemo home it resolved and its `MNEMO_*` environment (the engine loads the hook's config from them and
 * declines when it names another store), and the time after which the hook no longer waits.
 */
export const hookArgsSchema = v.strictObject({
  event: v.picklist(FORWARDED_HOOK_EVENTS),
  payload: text(MAX_REQUEST_BYTES),
  home: text(4096),
  env: v.pipe(
    v.record(v.pipe(v.string(), v.regex(HOOK_ENV_NAME)), text(4096)),
    v.check((env) => Object.keys(env).length <= MAX_HOOK_ENV_ENTRIES, 'too many variables'),
  ),
  answerBy: integer(),
});
/** The arguments of `hook`. */
export type EngineHookArgs = v.InferOutput<typeof hookArgsSchema>;

/**
 * What `hook` answers: the hook's stdout (null: print nothing), `late` (an injection the hook stopped
 * waiting for: nothing recorded), or `declined` (the engine did nothing, e.g. the hook's config names
 * another store: the hook runs itself).
 */
export type HookForwardResult =
  | { stdout: string | null }
  | { late: true }
  | { declined: 'config' | 'payload_too_large' };

/** A parsed request line, or the error to answer it with (`close`: end the connection after it). */
export type ParsedRequest =
  | { ok: true; id: string | number; op: 'ping' | 'drain' | 'stop' }
  | { ok: true; id: string | number; op: 'recall'; args: EngineRecallArgs }
  | { ok: true; id: string | number; op: 'capture'; args: SpoolEntry }
  | { ok: true; id: string | number; op: 'inject'; args: EngineInjectArgs }
  | { ok: true; id: string | number; op: 'hook'; args: EngineHookArgs }
  | {
      ok: false;
      id: string | number | null;
      code: EngineProtocolErrorCode;
      message: string;
      close: boolean;
    };

function bad(id: string | number | null, message: string): ParsedRequest {
  return { ok: false, id, code: 'BAD_REQUEST', message, close: false };
}

/** Parses one request line and checks its token (constant time) before anything else. */
export function parseRequest(line: string, token: string): ParsedRequest {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, id: null, code: 'BAD_REQUEST', message: 'not JSON', close: true };
  }
  const head = v.safeParse(envelope, json);
  if (!head.success) {
    return {
      ok: false,
      id: null,
      code: 'BAD_REQUEST',
      message: 'not a request object',
      close: true,
    };
  }
  const { id, v: version, op, args } = head.output;
  if (!tokensMatch(head.output.token, token)) {
    return { ok: false, id, code: 'UNAUTHORIZED', message: 'wrong or missing token', close: true };
  }
  if (version !== ENGINE_PROTOCOL_VERSION) {
    return {
      ok: false,
      id,
      code: 'UNSUPPORTED_VERSION',
      message: `protocol version ${JSON.stringify(version)} is not supported; this engine speaks ${ENGINE_PROTOCOL_VERSION}`,
      close: false,
    };
  }
  if (op === 'ping' || op === 'drain' || op === 'stop') return { ok: true, id, op };
  if (op === 'capture') {
    const entry = v.safeParse(spoolEntrySchema, args);
    // Path and issue type only: a message could echo capture text.
    if (!entry.success) {
      const issue = entry.issues[0];
      return bad(id, `bad capture: ${v.getDotPath(issue) ?? ''} ${issue.type}`.trim());
    }
    return { ok: true, id, op: 'capture', args: entry.output };
  }
  if (op === 'inject') {
    const inject = v.safeParse(injectArgsSchema, args);
    // Path and issue type only: a message could echo the prompt.
    if (!inject.success) {
      const issue = inject.issues[0];
      return bad(id, `bad inject arguments: ${v.getDotPath(issue) ?? ''} ${issue.type}`.trim());
    }
    return { ok: true, id, op: 'inject', args: inject.output };
  }
  if (op === 'hook') {
    const hook = v.safeParse(hookArgsSchema, args);
    // Path and issue type only: a message could echo the payload.
    if (!hook.success) {
      const issue = hook.issues[0];
      return bad(id, `bad hook arguments: ${v.getDotPath(issue) ?? ''} ${issue.type}`.trim());
    }
    return { ok: true, id, op: 'hook', args: hook.output };
  }
  if (op !== 'recall') return bad(id, `unknown op ${JSON.stringify(op).slice(0, 40)}`);
  const parsed = v.safeParse(recallArgsSchema, args);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return bad(id, `bad recall arguments: ${v.getDotPath(issue) ?? ''} ${issue.message}`.trim());
  }
  return { ok: true, id, op: 'recall', args: parsed.output };
}

/** A success line. */
export function okLine(id: string | number, result: unknown): string {
  return `${JSON.stringify({ v: ENGINE_PROTOCOL_VERSION, id, ok: true, result })}\n`;
}

/** An error line. Messages never carry memory content or the token. */
export function errorLine(id: string | number | null, code: string, message: string): string {
  return `${JSON.stringify({ v: ENGINE_PROTOCOL_VERSION, id, ok: false, error: { code, message } })}\n`;
}

/** A response line as a client reads it. */
export const responseSchema = v.union([
  v.object({
    v: v.literal(ENGINE_PROTOCOL_VERSION),
    id: requestId,
    ok: v.literal(true),
    result: v.unknown(),
  }),
  v.object({
    v: v.literal(ENGINE_PROTOCOL_VERSION),
    id: v.nullable(requestId),
    ok: v.literal(false),
    error: v.object({ code: v.string(), message: v.string() }),
  }),
]);

/**
 * What `capture` answers once the entry is safe: `stored` when it was applied to the store (taint and
 * write committed), `spooled` when the store was busy and the engine spooled it for its drain,
 * `refused` when the spool refused it too (full, unsafe field: logged and counted by the engine).
 */
export const captureResultSchema = v.object({
  outcome: v.picklist(['stored', 'spooled', 'refused']),
});
/** The engine's answer to `capture`. */
export type CaptureResult = v.InferOutput<typeof captureResultSchema>;

/** What `ping` answers. */
export const pingResultSchema = v.object({
  pid: integer(),
  version: v.string(),
  protocol: integer(),
  uptimeMs: v.number(),
  home: v.string(),
  embedder: v.nullable(v.string()),
  /** Recall requests answered since the engine started. */
  recalls: integer(),
  /** Session-start and prompt-recall hooks answered (not `late`) since the engine started. */
  injections: v.optional(integer(), 0),
  queues: v.object({
    spoolFiles: integer(),
    spoolBytes: integer(),
    /** Memories without a vector of the embedder, counted up to `unembeddedCap`. */
    unembedded: integer(),
    unembeddedCap: integer(),
  }),
});
/** The engine's answer to `ping`. */
export type EnginePing = v.InferOutput<typeof pingResultSchema>;

const memorySchema = v.object({
  id: v.string(),
  content: v.string(),
  projectKey: v.string(),
  visibility: v.picklist(VISIBILITIES),
  kind: v.picklist(MEMORY_KINDS),
  tags: v.array(v.string()),
  origin: v.string(),
  originTool: v.nullable(v.string()),
  sessionId: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  lastAccessedAt: v.nullable(v.string()),
  accessCount: v.number(),
  heatBase: v.number(),
  pinned: v.boolean(),
  supersedes: v.nullable(v.string()),
  supersededBy: v.nullable(v.string()),
  contentHash: v.string(),
  embeddingModel: v.nullable(v.string()),
  trustBand: v.string(),
  tainted: v.boolean(),
  quarantine: v.picklist(QUARANTINE_STATES),
  redactions: v.number(),
  gateReason: v.picklist(GATE_REASONS),
  authorUser: v.nullable(v.string()),
  authorHost: v.nullable(v.string()),
  teamVisible: v.boolean(),
  // Schema v7; an engine built before it sends none.
  sourceUrl: v.optional(v.nullable(v.string()), null),
  context: v.string(),
});

const rank = v.optional(v.number());
/** One hit of `recall`, as retrieve() returns it (JSON: non-finite numbers arrive as null). */
export const rankedHitSchema = v.object({
  memory: memorySchema,
  score: v.number(),
  ranks: v.object({
    lexical: rank,
    vector: rank,
    words: rank,
    identifier: rank,
    concept: rank,
    rerank: rank,
  }),
  trustBand: v.picklist(TRUST_BANDS),
  quarantined: v.boolean(),
  fusedScore: v.number(),
  factors: v.object({ recency: v.number(), heat: v.number(), trust: v.number() }),
  heat: v.number(),
  contributions: v.record(v.string(), v.number()),
  // An engine built before calibrated relevance sends none: 0 injects nothing until it restarts.
  relevance: v.optional(v.number(), 0),
  evidence: v.optional(
    v.object({
      coverage: v.number(),
      similarityZ: v.optional(v.number()),
      lead: v.number(),
      rank: v.number(),
      bestCoverage: v.number(),
      concept: v.optional(v.boolean()),
    }),
    { coverage: 0, lead: 0, rank: 1, bestCoverage: 0 },
  ),
});
/** What `recall` answers. */
export const recallResultSchema = v.object({ hits: v.array(rankedHitSchema) });
