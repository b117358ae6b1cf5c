/**
 * Argument and result schema pieces shared by the tools. The limits live in the schemas so the model sees
 * them in `tools/list` (as `maxLength`, `maxItems`...) before it calls, and a violation comes back as an
 * `isError` result whose message says what to change.
 */
import { z } from 'zod';

import {
  MAX_CONTENT_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MEMORY_KINDS,
  type MemoryKind,
} from '../core/memory.js';
import { TRUST_ORDER } from '../core/origin/origin-class.js';

/** Most hits `recall` returns in one call. */
export const MAX_RECALL_LIMIT = 50;
/** Most memories one `list_memories` page holds. */
export const MAX_PAGE_SIZE = 100;
/** Deepest `list_memories` offset; beyond it, filters narrow better than paging. */
export const MAX_OFFSET = 100_000;
/** Longest `recall` query. */
export const MAX_QUERY_LENGTH = 1000;

/** A memory id: a 26-character ULID, case-insensitive. */
export const memoryIdArg = z
  .string()
  .regex(/^\s*[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}\s*$/, {
    error:
      'Not a memory id: ids are 26-character ULIDs (for example 01JD5Y8Q3X9V7M2K4N6P8R0T2W) as shown by recall or list_memories.',
  })
  .describe('Memory id (26-character ULID) from recall or list_memories.');

/** The text of a memory. The write service redacts secrets and strips invisible characters. */
export const contentArg = z
  .string()
  .min(1, { error: 'Content is empty. Give the text to remember.' })
  .max(MAX_CONTENT_LENGTH, {
    error: `Content is longer than ${MAX_CONTENT_LENGTH} characters. Split it into smaller memories or store a summary with a file path.`,
  });

/** Tags as the write path accepts them. */
export const tagsArg = z
  .array(
    z
      .string()
      .min(1, { error: 'Tags cannot be empty.' })
      .max(MAX_TAG_LENGTH, { error: `A tag is at most ${MAX_TAG_LENGTH} characters.` })
      .regex(/^[^\s,]+$/, { error: 'A tag has no spaces or commas; use dashes: "build-tooling".' }),
  )
  .max(MAX_TAGS, { error: `At most ${MAX_TAGS} tags.` });

/** Kinds a model may write with `remember` (`capture` belongs to the hooks, `checkpoint` to its tool). */
export const WRITABLE_KINDS = [
  'note',
  'decision',
  'error',
  'fix',
  'preference',
  'fact',
] as const satisfies readonly MemoryKind[];

export const writableKindArg = z.enum(WRITABLE_KINDS);
export const kindArg = z.enum(MEMORY_KINDS);
export const originArg = z.enum(TRUST_ORDER);

/** Whole numbers in `[min, max]` with a message naming the range. */
export function intArg(min: number, max: number, what: string): z.ZodInt {
  return z
    .int({ error: `${what} must be a whole number.` })
    .min(min, { error: `${what} must be at least ${min}.` })
    .max(max, { error: `${what} must be at most ${max}.` });
}

/** The frame every memory-bearing result travels in (threat model R1–R3). */
export const frameSchema = z.object({
  nonce: z.string(),
  notice: z.string(),
});

/** One memory as a model sees it: rendered by the one renderer, body quoted line by line. */
export const memoryViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  origin: z.string(),
  date: z.string(),
  ageDays: z.number().optional(),
  flags: z.array(z.string()),
  /** Why it may be out of date ("cites src/db.ts, changed 4 commits ago"), when it is stale. */
  note: z.string().optional(),
  quoted: z.string(),
});

/** The structured result of every write tool. */
export const writeReportSchema = z.object({
  decision: z.enum(['stored', 'merged']),
  id: z.string(),
  origin: z.string(),
  quarantine: z.string(),
  notes: z.array(z.string()),
});
