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
 * a response over {@link MAX_RESPONSE_BYTES}. A new version adds ops or fields; `v` changes only when
 * an existing op changes meaning, and the engine answers an unknown `v` with UNSUPPORTED_VERSION.
 */
import { z } from 'zod';

import { MAX_LIMIT } from '../config/limits.js';
import { GATE_REASONS, MEMORY_KINDS, QUARANTINE_STATES, VISIBILITIES } from '../core/memory.js';
import { TRUST_BANDS } from '../core/origin/origin-class.js';
import { tokensMatch } from './engine-token.js';

/** The protocol version this build speaks. */
export const ENGINE_PROTOCOL_VERSION = 1;
/** Largest request line, newline excluded. A recall query with filters is a few KiB. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** Largest response line a client reads (1000 hits of 32 KiB memories would not fit; 1000 captures do). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Longest recall query accepted (the MCP recall tool's own limit is smaller). */
export const MAX_QUERY_CHARS = 8192;

/** The operations. */
export const ENGINE_OPS = ['ping', 'recall', 'drain', 'stop'] as const;
export type EngineOp = (typeof ENGINE_OPS)[number];

/** Error codes of the protocol itself; handler failures carry the MemoryError code (e.g. STORE_BUSY). */
export type EngineProtocolErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'UNSUPPORTED_VERSION'
  | 'TOO_LARGE'
  | 'INTERNAL';

const requestId = z.union([z.string().max(64), z.int()]);

// Only the id is required here: a missing token must still be answered as UNAUTHORIZED.
const envelope = z.object({
  v: z.unknown().optional(),
  id: requestId,
  token: z.unknown().optional(),
  op: z.unknown().optional(),
  args: z.unknown().optional(),
});

/** Arguments of `recall`: a subset of retrieve()'s request, all JSON. */
export const recallArgsSchema = z.strictObject({
  query: z.string().min(1).max(MAX_QUERY_CHARS),
  scope: z.strictObject({
    projectKey: z.string().max(4096).nullable(),
    includeGlobal: z.boolean(),
  }),
  limit: z.int().min(1).max(MAX_LIMIT),
  filters: z
    .strictObject({
      kinds: z.array(z.enum(MEMORY_KINDS)).max(MEMORY_KINDS.length).optional(),
      tags: z.array(z.string().max(256)).max(32).optional(),
      origins: z.array(z.string().max(64)).max(16).optional(),
      createdAfter: z.string().max(64).optional(),
      createdBefore: z.string().max(64).optional(),
      includeSuperseded: z.boolean().optional(),
      quarantine: z.array(z.enum(QUARANTINE_STATES)).max(QUARANTINE_STATES.length).optional(),
    })
    .optional(),
  mmr: z
    .union([z.boolean(), z.strictObject({ lambda: z.number().min(0).max(1).optional() })])
    .optional(),
  recordAccess: z.union([z.boolean(), z.int().min(0).max(MAX_LIMIT)]).optional(),
  depth: z.int().min(1).max(MAX_LIMIT).optional(),
});
/** The arguments of `recall`. */
export type EngineRecallArgs = z.infer<typeof recallArgsSchema>;

/** A parsed request line, or the error to answer it with (`close`: end the connection after it). */
export type ParsedRequest =
  | { ok: true; id: string | number; op: 'ping' | 'drain' | 'stop' }
  | { ok: true; id: string | number; op: 'recall'; args: EngineRecallArgs }
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
  const head = envelope.safeParse(json);
  if (!head.success) {
    return {
      ok: false,
      id: null,
      code: 'BAD_REQUEST',
      message: 'not a request object',
      close: true,
    };
  }
  const { id, v, op, args } = head.data;
  if (!tokensMatch(head.data.token, token)) {
    return { ok: false, id, code: 'UNAUTHORIZED', message: 'wrong or missing token', close: true };
  }
  if (v !== ENGINE_PROTOCOL_VERSION) {
    return {
      ok: false,
      id,
      code: 'UNSUPPORTED_VERSION',
      message: `protocol version ${JSON.stringify(v)} is not supported; this engine speaks ${ENGINE_PROTOCOL_VERSION}`,
      close: false,
    };
  }
  if (op === 'ping' || op === 'drain' || op === 'stop') return { ok: true, id, op };
  if (op !== 'recall') return bad(id, `unknown op ${JSON.stringify(op).slice(0, 40)}`);
  const parsed = recallArgsSchema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(
      id,
      `bad recall arguments: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return { ok: true, id, op: 'recall', args: parsed.data };
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
export const responseSchema = z.union([
  z.object({
    v: z.literal(ENGINE_PROTOCOL_VERSION),
    id: requestId,
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.object({
    v: z.literal(ENGINE_PROTOCOL_VERSION),
    id: requestId.nullable(),
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);

/** What `ping` answers. */
export const pingResultSchema = z.object({
  pid: z.int(),
  version: z.string(),
  protocol: z.int(),
  uptimeMs: z.number(),
  home: z.string(),
  embedder: z.string().nullable(),
  /** Recall requests answered since the engine started. */
  recalls: z.int(),
  queues: z.object({
    spoolFiles: z.int(),
    spoolBytes: z.int(),
    /** Memories without a vector of the embedder, counted up to `unembeddedCap`. */
    unembedded: z.int(),
    unembeddedCap: z.int(),
  }),
});
/** The engine's answer to `ping`. */
export type EnginePing = z.infer<typeof pingResultSchema>;

const memorySchema = z.object({
  id: z.string(),
  content: z.string(),
  projectKey: z.string(),
  visibility: z.enum(VISIBILITIES),
  kind: z.enum(MEMORY_KINDS),
  tags: z.array(z.string()),
  origin: z.string(),
  originTool: z.string().nullable(),
  sessionId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastAccessedAt: z.string().nullable(),
  accessCount: z.number(),
  heatBase: z.number(),
  pinned: z.boolean(),
  supersedes: z.string().nullable(),
  supersededBy: z.string().nullable(),
  contentHash: z.string(),
  embeddingModel: z.string().nullable(),
  trustBand: z.string(),
  tainted: z.boolean(),
  quarantine: z.enum(QUARANTINE_STATES),
  redactions: z.number(),
  gateReason: z.enum(GATE_REASONS),
});

const rank = z.number().optional();
/** One hit of `recall`, as retrieve() returns it (JSON: non-finite numbers arrive as null). */
export const rankedHitSchema = z.object({
  memory: memorySchema,
  score: z.number(),
  ranks: z.object({ lexical: rank, vector: rank, identifier: rank, rerank: rank }),
  trustBand: z.enum(TRUST_BANDS),
  quarantined: z.boolean(),
  fusedScore: z.number(),
  factors: z.object({ recency: z.number(), heat: z.number(), trust: z.number() }),
  heat: z.number(),
  contributions: z.record(z.string(), z.number()),
});
/** What `recall` answers. */
export const recallResultSchema = z.object({ hits: z.array(rankedHitSchema) });

/**
 * Splits a byte stream into lines, holding at most `maxBytes` of an unfinished line. Once a line is
 * longer, `overflow` is set and the caller must answer TOO_LARGE and drop the connection.
 */
export class LineBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  overflow = false;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk; returns the complete lines it finished (without the newline). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, nl);
      if (this.pendingBytes + part.length > this.maxBytes) {
        this.overflow = true;
        return lines;
      }
      lines.push(Buffer.concat([...this.pending, part]).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxBytes) {
      this.overflow = true;
      return lines;
    }
    if (rest.length > 0) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }
}
