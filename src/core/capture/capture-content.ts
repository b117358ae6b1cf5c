/**
 * Builds the text of a capture from a tool event: short, structural summaries (a path and a diff line, a
 * command and the head of its error), never the raw tool output in full. Every field is capped before it
 * is split, trimmed or searched (see cap-text.ts), so the work here is bounded by the caps whatever size
 * the payload had. Pure.
 */
import type { MemoryKind } from '../memory.js';
import { sourceUrlOf } from '../origin/source-url.js';
import { normaliseToolName } from '../origin/tool-names.js';
import { capText, capWithMarker, collectText, truncationMarker } from './cap-text.js';
import type { CaptureChannel, SkipReason } from './capture-policy.js';

/** Field caps, in UTF-16 code units, applied before any other processing. */
export const CAPTURE_FIELD_CAPS = Object.freeze({
  path: 1024,
  command: 2000,
  /** Edit strings and Write content: enough for a diff summary and a line count. */
  editText: 8000,
  /** Error text of a failed command; the capture keeps a head of it. */
  errorText: 4000,
  /** Page text of a fetch, results of a search, output of a generic capture. */
  outputText: 4000,
  query: 500,
});

/** Lines and characters of the error head kept in an `error` capture. */
const ERROR_HEAD_LINES = 12;
const ERROR_HEAD_CHARS = 800;
/** One diff line in an edit summary. */
const DIFF_LINE_CHARS = 160;

/** The parts of a tool event the builders read. `cwd` shortens paths inside the project. */
export interface CaptureSource {
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly toolResponse?: unknown;
  readonly error?: unknown;
  readonly cwd: string;
}

/** A capture ready for the write service, or the reason there is none. */
export type BuiltCapture =
  | { readonly ok: true; readonly kind: MemoryKind; readonly content: string }
  | { readonly ok: false; readonly reason: SkipReason };

function field(input: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(input, name) ? input[name] : undefined;
}

/** A path shown relative to the session's directory when it lies inside it. */
export function displayPath(rawPath: unknown, cwd: string): string {
  const path = capWithMarker(rawPath, CAPTURE_FIELD_CAPS.path);
  const base = cwd.replace(/[\\/]+$/, '');
  for (const separator of ['/', '\\']) {
    if (base.length > 0 && path.startsWith(base + separator)) return path.slice(base.length + 1);
  }
  return path;
}

/** The first line with visible text, trimmed and cut to `max` (the diff line of a summary). */
function firstLine(text: string, max: number): string {
  for (const line of text.split('\n', 50)) {
    const trimmed = line.trim();
    if (trimmed.length > 0) {
      const capped = capText(trimmed, max);
      return capped.dropped > 0 ? `${capped.text}…` : capped.text;
    }
  }
  return '';
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

function floor(substance: string, minChars: number): boolean {
  return substance.trim().length >= minChars;
}

function editSummary(oldText: string, newText: string): string {
  const removed = firstLine(oldText, DIFF_LINE_CHARS);
  const added = firstLine(newText, DIFF_LINE_CHARS);
  const counts = `${countLines(oldText)}→${countLines(newText)} lines`;
  const parts = [removed && `- ${removed}`, added && `+ ${added}`].filter((p) => p.length > 0);
  return `${parts.join(' / ') || 'whitespace only'} (${counts})`;
}

function buildEdit(source: CaptureSource, minChars: number): BuiltCapture {
  const key = normaliseToolName(source.toolName);
  const input = source.toolInput;
  const rawPath = field(input, key === 'notebookedit' ? 'notebook_path' : 'file_path');
  if (typeof rawPath !== 'string' || rawPath.length === 0)
    return { ok: false, reason: 'missing_fields' };
  const path = displayPath(rawPath, source.cwd);
  let summary: string;
  let substance: string;
  if (key === 'write') {
    const content = capText(field(input, 'content'), CAPTURE_FIELD_CAPS.editText);
    const lines = countLines(content.text);
    summary = `wrote ${lines}${content.dropped > 0 ? '+' : ''} lines; first: ${firstLine(content.text, DIFF_LINE_CHARS)}`;
    substance = content.text;
  } else if (key === 'multiedit') {
    const edits = field(input, 'edits');
    const list = Array.isArray(edits) ? edits.slice(0, 50) : [];
    const first = (list[0] ?? {}) as Record<string, unknown>;
    const oldText = capText(first['old_string'], CAPTURE_FIELD_CAPS.editText).text;
    const newText = capText(first['new_string'], CAPTURE_FIELD_CAPS.editText).text;
    const count = Array.isArray(edits) ? edits.length : 0;
    summary = `${count} edit${count === 1 ? '' : 's'}; first: ${editSummary(oldText, newText)}`;
    substance = oldText + newText;
  } else if (key === 'notebookedit') {
    const source_ = capText(field(input, 'new_source'), CAPTURE_FIELD_CAPS.editText).text;
    const mode = capText(field(input, 'edit_mode'), 16).text || 'replace';
    summary = `${mode} cell: ${firstLine(source_, DIFF_LINE_CHARS) || '(empty)'}`;
    substance = mode === 'delete' ? 'deleted notebook cell' : source_;
  } else {
    const oldText = capText(field(input, 'old_string'), CAPTURE_FIELD_CAPS.editText).text;
    const newText = capText(field(input, 'new_string'), CAPTURE_FIELD_CAPS.editText).text;
    summary = editSummary(oldText, newText);
    substance = oldText + newText;
  }
  if (!floor(substance, minChars)) return { ok: false, reason: 'below_length_floor' };
  return { ok: true, kind: 'capture', content: `Edited ${path}: ${summary}` };
}

function commandOf(source: CaptureSource): string | undefined {
  const command = capText(field(source.toolInput, 'command'), CAPTURE_FIELD_CAPS.command);
  const trimmed = command.text.trim();
  return trimmed.length === 0 ? undefined : trimmed + truncationMarker(command.dropped);
}

/** The head of an error: first lines with text, blank runs collapsed, bounded in lines and chars. */
export function errorHead(rawError: unknown): string {
  const capped = capText(rawError, CAPTURE_FIELD_CAPS.errorText);
  const lines: string[] = [];
  for (const line of capped.text.split('\n', 400)) {
    const trimmed = line.trimEnd();
    if (trimmed.trim().length === 0) continue;
    lines.push(trimmed);
    if (lines.length >= ERROR_HEAD_LINES) break;
  }
  const head = capText(lines.join('\n'), ERROR_HEAD_CHARS);
  const cut = head.dropped > 0 || capped.dropped > 0 || lines.length >= ERROR_HEAD_LINES;
  return head.text + (cut ? '\n… [error output truncated]' : '');
}

function buildExecFailure(source: CaptureSource, minChars: number): BuiltCapture {
  const command = commandOf(source);
  if (command === undefined) return { ok: false, reason: 'missing_fields' };
  const head = errorHead(source.error);
  if (!floor(head, minChars)) return { ok: false, reason: 'below_length_floor' };
  return { ok: true, kind: 'error', content: `Command failed: ${command}\n${head}` };
}

function buildFix(source: CaptureSource): BuiltCapture {
  const command = commandOf(source);
  if (command === undefined) return { ok: false, reason: 'missing_fields' };
  return { ok: true, kind: 'fix', content: `fixed: ${command} now passes` };
}

function responseText(response: unknown): { text: string; dropped: number } {
  if (typeof response === 'string') return capText(response, CAPTURE_FIELD_CAPS.outputText);
  if (response !== null && typeof response === 'object' && !Array.isArray(response)) {
    const record = response as Record<string, unknown>;
    // WebFetch keeps the small model's answer in `result`; prefer it over walking the whole object.
    if (typeof record['result'] === 'string') {
      return capText(record['result'], CAPTURE_FIELD_CAPS.outputText);
    }
  }
  return collectText(response, CAPTURE_FIELD_CAPS.outputText);
}

/** How a fetch capture starts: `Fetched <url>:` and a newline, then the page text. */
const FETCHED_PREFIX = 'Fetched ';

function buildNetwork(source: CaptureSource, minChars: number): BuiltCapture {
  const key = normaliseToolName(source.toolName);
  const body = responseText(source.toolResponse);
  if (!floor(body.text, minChars)) return { ok: false, reason: 'below_length_floor' };
  const text = body.text.trim() + truncationMarker(body.dropped);
  if (key === 'websearch') {
    const query = capWithMarker(field(source.toolInput, 'query'), CAPTURE_FIELD_CAPS.query);
    return { ok: true, kind: 'capture', content: `Searched the web for "${query}":\n${text}` };
  }
  const url = field(source.toolInput, 'url');
  const where =
    typeof url === 'string' ? capWithMarker(url, CAPTURE_FIELD_CAPS.path) : source.toolName;
  return { ok: true, kind: 'capture', content: `${FETCHED_PREFIX}${where}:\n${text}` };
}

/**
 * The source URL of a fetch capture stored before captures carried one (the schema v5 backfill): the
 * address `buildNetwork` wrote from the tool input on the first line, `Fetched <url>:`. A capped address
 * (with the truncation marker) or anything else yields null.
 */
export function fetchedSourceUrl(content: string): string | null {
  if (!content.startsWith(FETCHED_PREFIX)) return null;
  const end = content.indexOf(':\n');
  if (end === -1 || end > FETCHED_PREFIX.length + CAPTURE_FIELD_CAPS.path) return null;
  const address = content.slice(FETCHED_PREFIX.length, end);
  return /\s/.test(address) ? null : sourceUrlOf(address);
}

function buildGeneric(source: CaptureSource, minChars: number): BuiltCapture {
  const body =
    source.error === undefined
      ? responseText(source.toolResponse)
      : capText(source.error, CAPTURE_FIELD_CAPS.outputText);
  if (!floor(body.text, minChars)) return { ok: false, reason: 'below_length_floor' };
  const name = capText(source.toolName, 128).text;
  return {
    ok: true,
    kind: source.error === undefined ? 'capture' : 'error',
    content: `${name} output:\n${body.text.trim()}${truncationMarker(body.dropped)}`,
  };
}

/**
 * The capture for an event the policy accepted. `exec_success` yields the `fix` text; the caller decides
 * whether a fix is due (an earlier failure of the same command in the same session).
 */
export function buildCapture(
  channel: CaptureChannel,
  source: CaptureSource,
  minChars: number,
): BuiltCapture {
  switch (channel) {
    case 'edit':
      return buildEdit(source, minChars);
    case 'exec_failure':
      return buildExecFailure(source, minChars);
    case 'exec_success':
      return buildFix(source);
    case 'network':
      return buildNetwork(source, minChars);
    case 'generic':
      return buildGeneric(source, minChars);
  }
}

/** The command of a Bash/PowerShell event, capped and trimmed; the key that links an error to its fix. */
export function commandKeyText(toolInput: Readonly<Record<string, unknown>>): string | undefined {
  const command = field(toolInput, 'command');
  if (typeof command !== 'string') return undefined;
  const trimmed = capText(command, CAPTURE_FIELD_CAPS.command).text.trim();
  return trimmed.length === 0 ? undefined : trimmed;
}
