/**
 * One line of the capture spool. A record carries what a tool-result hook decided from the envelope (the
 * event, the tool name, the session) plus the capture text it built, already redacted, so the drain can
 * replay the live capture path (`applyToolResult`) with origin and privileges recomputed from the channel
 * fields. Nothing in a record is trusted for privilege: the schema is strict and bounded, and fields a
 * host never sends (origin, force, trust...) cannot appear. valibot, because a hook that spools or
 * hands a capture to the engine validates it on the way out (see hooks/hook-input.ts).
 */
import * as v from 'valibot';

import { SKIP_REASONS } from '../core/capture/capture-policy.js';
import { MAX_TAGS, MEMORY_KINDS } from '../core/memory.js';
import { MAX_SOURCE_URL_LENGTH } from '../core/origin/source-url.js';
import { MAX_RAW_CONTENT_CHARS } from '../write/write-steps.js';

/** The record format version; a drain refuses (and counts) lines of another version. */
export const SPOOL_RECORD_VERSION = 1;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));
const sessionId = text(1, 256);

const head = {
  v: v.literal(SPOOL_RECORD_VERSION),
  /** A ULID: the entry's identity for exactly-once draining, and its time order. */
  id: v.pipe(v.string(), v.regex(ULID)),
  /** When the hook spooled it (ISO-8601). */
  at: text(0, 64),
};

const plannedCapture = v.strictObject({
  projectKey: text(1, 4096),
  /** The session's directory, for the capture's anchors; absent in records written before anchors. */
  cwd: v.optional(text(1, 4096)),
  kind: v.picklist(MEMORY_KINDS),
  content: text(0, MAX_RAW_CONTENT_CHARS),
  tags: v.pipe(v.array(text(0, 256)), v.maxLength(MAX_TAGS)),
  sourceUrl: v.optional(text(1, MAX_SOURCE_URL_LENGTH)),
});

const toolResultFields = {
  type: v.literal('tool_result'),
  event: v.picklist(['PostToolUse', 'PostToolUseFailure']),
  toolName: text(1, 256),
  sessionId,
  interrupted: v.optional(v.boolean()),
  capture: v.union([plannedCapture, v.strictObject({ skip: v.picklist(SKIP_REASONS) })]),
};

/** A tool result whose payload was refused: its session is tainted as unknown (fail closed). */
const refusedToolResultFields = {
  type: v.literal('refused_tool_result'),
  sessionId: v.nullable(sessionId),
};

const toolResultRecord = v.strictObject({ ...head, ...toolResultFields });

/** A spool line, validated. */
export const spoolRecordSchema = v.variant('type', [
  toolResultRecord,
  v.strictObject({ ...head, ...refusedToolResultFields }),
]);
/** A validated spool line. */
export type SpoolRecord = v.InferOutput<typeof spoolRecordSchema>;
/** A tool-result line. */
export type ToolResultRecord = v.InferOutput<typeof toolResultRecord>;

/**
 * An entry as a hook hands it to the engine (a record without its spool head); the engine applies it or
 * spools it, so it is validated exactly as strictly as a spool line.
 */
export const spoolEntrySchema = v.variant('type', [
  v.strictObject(toolResultFields),
  v.strictObject(refusedToolResultFields),
]);

type WithoutHead<T> = T extends unknown ? Omit<T, 'v' | 'id' | 'at'> : never;
/** What a writer hands to `appendSpool`: a record without version, id and time (assigned there). */
export type SpoolEntry = WithoutHead<SpoolRecord>;
