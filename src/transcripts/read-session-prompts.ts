/**
 * The user's typed prompts of one session, read from its transcript for a checkpoint. Runs inside a
 * hook, so it is bounded twice: by bytes (only the last `maxBytes` of a larger file are read, starting
 * at the first full line of that window) and by time (reading stops when `budgetMs` has passed). Both
 * cuts are reported, never hidden. Only lines that can be a prompt are parsed; tool results, which make
 * up most of a transcript's bytes, are recognised by their structural marker and skipped unparsed.
 */
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

import { MemoryError } from '../core/errors.js';
import { readLines } from './read-lines.js';
import { parseTranscriptLine } from './transcript-entry.js';

/** The bounds of a hook-time read. */
export interface PromptReadLimits {
  /** Bytes read from the end of the file at most. */
  readonly maxBytes: number;
  /** Milliseconds of reading at most. */
  readonly budgetMs: number;
}

/** Defaults sized for SessionEnd's 1.5 s budget: 8 MiB of tail, 400 ms. */
export const DEFAULT_PROMPT_READ_LIMITS: PromptReadLimits = Object.freeze({
  maxBytes: 8 * 1024 * 1024,
  budgetMs: 400,
});

/** What was read. */
export interface SessionPrompts {
  /** Prompts in transcript order, each cut to {@link PROMPT_KEEP_CHARS}. */
  readonly prompts: string[];
  /** True when the file was read from a tail window, so older prompts may be missing. */
  readonly partial: boolean;
  /** True when reading stopped at the time budget. */
  readonly timedOut: boolean;
  readonly bytesRead: number;
}

/** A checkpoint shows a few hundred characters of a prompt; a pasted 100 kB prompt is not kept whole. */
export const PROMPT_KEEP_CHARS = 1000;
const MAX_LINE_BYTES = 1024 * 1024;
/** A line that can hold a typed prompt: a user line. Matches compact and spaced JSON. */
const USER_LINE = /"type"\s*:\s*"user"/;
/** An unescaped `"tool_result"` is structure, never prompt text (quotes inside strings are escaped). */
const TOOL_RESULT_MARK = '"tool_result"';

function capPrompt(prompt: string): string {
  if (prompt.length <= PROMPT_KEEP_CHARS) return prompt;
  const last = prompt.charCodeAt(PROMPT_KEEP_CHARS - 1);
  return prompt.slice(
    0,
    last >= 0xd800 && last <= 0xdbff ? PROMPT_KEEP_CHARS - 1 : PROMPT_KEEP_CHARS,
  );
}

/**
 * Reads the prompts of `sessionId` from the transcript at `path`. Lines of other sessions (a resumed
 * session appends to its file) are ignored. Throws INVALID_INPUT when `path` is not a regular `.jsonl`
 * file, so a forged payload cannot point the hook at a FIFO or an arbitrary file.
 */
export async function readSessionPrompts(
  path: string,
  sessionId: string,
  limits: PromptReadLimits = DEFAULT_PROMPT_READ_LIMITS,
): Promise<SessionPrompts> {
  if (!path.endsWith('.jsonl')) {
    throw new MemoryError('INVALID_INPUT', 'The transcript path is not a .jsonl file; not read.');
  }
  const info = await stat(path);
  if (!info.isFile()) {
    throw new MemoryError('INVALID_INPUT', 'The transcript path is not a regular file; not read.');
  }
  const size = info.size;
  const start = Math.max(0, size - limits.maxBytes);
  const began = performance.now();
  const prompts: string[] = [];
  let timedOut = false;
  let bytesRead = 0;
  for await (const line of readLines(path, {
    start,
    end: size,
    maxLineBytes: MAX_LINE_BYTES,
    skipPartialFirst: start > 0,
  })) {
    bytesRead = line.end - start;
    if (performance.now() - began > limits.budgetMs) {
      timedOut = true;
      break;
    }
    if (line.text === undefined || !USER_LINE.test(line.text)) continue;
    if (line.text.includes(TOOL_RESULT_MARK)) continue;
    const entry = parseTranscriptLine(line.text);
    if (entry?.prompt === undefined) continue;
    if (entry.sessionId !== undefined && entry.sessionId !== sessionId) continue;
    prompts.push(capPrompt(entry.prompt));
  }
  return { prompts, partial: start > 0, timedOut, bytesRead };
}
