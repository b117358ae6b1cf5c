/**
 * Reading a session's memories as checkpoint items: which files were edited, which commands failed and
 * which of those passed later, which decisions were recorded, which outside sources were consulted. The
 * item type comes from the memory's kind and its `originTool` (both set by the write path from the
 * channel), never from words in the text; the text is only cut into a display line. Pure.
 */
import { fixCommandOf } from '../capture/fix-evidence.js';
import type { MemoryKind } from '../memory.js';
import { normaliseToolName } from '../origin/tool-names.js';

/** One memory of the session, as the checkpoint reads it. */
export interface CheckpointMemory {
  readonly id: string;
  readonly kind: MemoryKind;
  readonly origin: string;
  readonly originTool: string | null;
  readonly content: string;
  readonly tags: readonly string[];
  /** ISO-8601; with `id` (a ULID) it orders the session's memories. */
  readonly createdAt: string;
}

/** Tools whose capture is an `Edited <path>: …` summary (core/capture/capture-content.ts). */
const EDIT_TOOLS: ReadonlySet<string> = new Set(['edit', 'write', 'multiedit', 'notebookedit']);
/** The tag prefix that links a failed command to its fix (hooks/post-tool-use.ts `commandTag`). */
const COMMAND_TAG_PREFIX = 'cmd:';

/** Longest display line of one item, in UTF-16 code units. */
export const ITEM_LINE_CHARS = 200;

/** Chronological order: creation time, then id (ULIDs sort by creation within a millisecond). */
export function byCreation(a: CheckpointMemory, b: CheckpointMemory): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Text on one line: whitespace runs collapsed, cut to `max` with an ellipsis, no lone surrogate. */
export function oneLine(text: string, max = ITEM_LINE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = max - 1;
  const last = flat.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut)}…`;
}

/** True for an edit capture: kind `capture` written by an edit tool. */
export function isEditCapture(memory: CheckpointMemory): boolean {
  return (
    memory.kind === 'capture' &&
    memory.originTool !== null &&
    EDIT_TOOLS.has(normaliseToolName(memory.originTool)) &&
    memory.content.startsWith('Edited ')
  );
}

/** The edited path of an edit capture: the text between `Edited ` and the first `: `. */
export function editedPath(memory: CheckpointMemory): string {
  const rest = memory.content.slice('Edited '.length);
  const end = rest.indexOf(': ');
  return oneLine(end === -1 ? rest : rest.slice(0, end));
}

/** The command tag of an error or fix, or undefined when it carries none. */
export function commandTagOf(memory: CheckpointMemory): string | undefined {
  return memory.tags.find((tag) => tag.startsWith(COMMAND_TAG_PREFIX));
}

/**
 * The command of a fix as captured (`fixed: <command> now passes`, with or without its evidence), or
 * undefined for another shape.
 */
export function fixedCommand(memory: CheckpointMemory): string | undefined {
  return fixCommandOf(memory.content);
}

/** The lines of an error capture after `Command failed: <command>`, when the command is known. */
function errorBody(memory: CheckpointMemory, command: string | undefined): string[] {
  const prefix = 'Command failed: ';
  let text = memory.content;
  if (text.startsWith(prefix)) {
    text = text.slice(prefix.length);
    // The command may span lines; strip exactly it when the fix told us what it was.
    if (command !== undefined && text.startsWith(`${command}\n`)) text = text.slice(command.length);
    else text = text.slice(Math.max(0, text.indexOf('\n')));
  }
  return text
    .split('\n', 50)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

const EXIT_CODE_LINE = /^exit code -?\d+$/i;
/** Lines that name the error itself, then lines that only say something failed. */
const ERROR_LINE = /error|exception|panic|fatal|traceback/i;
const FAILURE_LINE = /fail|cannot|can't|not found|denied|invalid|refused|undefined/i;

/**
 * The most telling line of an error: the first that names the error, else the first that names a
 * failure, else the last line; bare `Exit code N` lines never. `command` (from the matching fix) lets
 * a multi-line command be cut off exactly.
 */
export function errorLine(memory: CheckpointMemory, command?: string): string {
  const lines = errorBody(memory, command).filter((line) => !EXIT_CODE_LINE.test(line));
  const telling =
    lines.find((line) => ERROR_LINE.test(line)) ??
    lines.find((line) => FAILURE_LINE.test(line)) ??
    lines.at(-1) ??
    '';
  return oneLine(telling, 160);
}

/** The command of an error capture (its first line after `Command failed: `), else its first line. */
export function failedCommand(memory: CheckpointMemory): string {
  const match = /^Command failed: (.*)/.exec(memory.content);
  return oneLine(match?.[1] ?? memory.content.split('\n', 1)[0] ?? '', 120);
}
