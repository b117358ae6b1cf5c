/**
 * One line of the capture spool. A record carries what a tool-result hook decided from the envelope (the
 * event, the tool name, the session) plus the capture text it built, already redacted, so the drain can
 * replay the live capture path (`applyToolResult`) with origin and privileges recomputed from the channel
 * fields. Nothing in a record is trusted for privilege: the schema is strict and bounded, and fields a
 * host never sends (origin, force, trust...) cannot appear.
 */
import { z } from 'zod';

import { SKIP_REASONS } from '../core/capture/capture-policy.js';
import { MAX_TAGS, MEMORY_KINDS } from '../core/memory.js';
import { MAX_RAW_CONTENT_CHARS } from '../write/write-steps.js';

/** The record format version; a drain refuses (and counts) lines of another version. */
export const SPOOL_RECORD_VERSION = 1;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const sessionId = z.string().min(1).max(256);

const head = {
  v: z.literal(SPOOL_RECORD_VERSION),
  /** A ULID: the entry's identity for exactly-once draining, and its time order. */
  id: z.string().regex(ULID),
  /** When the hook spooled it (ISO-8601). */
  at: z.string().max(64),
};

const plannedCapture = z.strictObject({
  projectKey: z.string().min(1).max(4096),
  /** The session's directory, for the capture's anchors; absent in records written before anchors. */
  cwd: z.string().min(1).max(4096).optional(),
  kind: z.enum(MEMORY_KINDS),
  content: z.string().max(MAX_RAW_CONTENT_CHARS),
  tags: z.array(z.string().max(256)).max(MAX_TAGS),
});

const toolResultRecord = z.strictObject({
  ...head,
  type: z.literal('tool_result'),
  event: z.enum(['PostToolUse', 'PostToolUseFailure']),
  toolName: z.string().min(1).max(256),
  sessionId,
  interrupted: z.boolean().optional(),
  capture: z.union([plannedCapture, z.strictObject({ skip: z.enum(SKIP_REASONS) })]),
});

/** A tool result whose payload was refused: its session is tainted as unknown (fail closed). */
const refusedToolResultRecord = z.strictObject({
  ...head,
  type: z.literal('refused_tool_result'),
  sessionId: sessionId.nullable(),
});

/** A spool line, validated. */
export const spoolRecordSchema = z.discriminatedUnion('type', [
  toolResultRecord,
  refusedToolResultRecord,
]);
/** A validated spool line. */
export type SpoolRecord = z.infer<typeof spoolRecordSchema>;
/** A tool-result line. */
export type ToolResultRecord = z.infer<typeof toolResultRecord>;

type WithoutHead<T> = T extends unknown ? Omit<T, 'v' | 'id' | 'at'> : never;
/** What a writer hands to `appendSpool`: a record without version, id and time (assigned there). */
export type SpoolEntry = WithoutHead<SpoolRecord>;
