/**
 * The part of a Markdown file (CLAUDE.md, or the page file itself) that mnemo manages: from a begin
 * marker line to an end marker line, both at column 0. Everything outside them is the person's and is
 * kept byte for byte: the splice replaces the characters between the start of the begin line and the
 * end of the end line and nothing else, in the file's own line endings. Markers inside a fenced code
 * block outside the section (documentation about mnemo) are not markers. A file with a marker but no
 * partner, or two sections, is malformed: INVALID_INPUT, and the caller changes nothing. Pure.
 */
import { MemoryError } from '../errors.js';
import { BEGIN_MARKER_PREFIX, END_MARKER } from './page-format.js';

export interface SectionLocation {
  /** Offset of the begin marker line's first character. */
  readonly start: number;
  /** Offset just after the end marker line's last character (before its line break). */
  readonly end: number;
  /** 1-based line of the begin marker. */
  readonly line: number;
  /** The section's lines, begin and end markers included, without line breaks. */
  readonly lines: readonly string[];
}

interface Line {
  readonly text: string;
  readonly start: number;
  /** Offset after the text, before the line break. */
  readonly end: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const pattern = /\r\n|\n|\r/gu;
  let start = 0;
  for (const match of text.matchAll(pattern)) {
    lines.push({ text: text.slice(start, match.index), start, end: match.index });
    start = match.index + match[0].length;
  }
  if (start < text.length || text.length === 0)
    lines.push({ text: text.slice(start), start, end: text.length });
  return lines;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/u;

function isBegin(text: string): boolean {
  const line = text.trimEnd();
  return line.startsWith(BEGIN_MARKER_PREFIX) && line.endsWith('-->');
}

function isEnd(text: string): boolean {
  return text.trimEnd() === END_MARKER;
}

/**
 * The managed section of `text`, or undefined when the file has none. Throws INVALID_INPUT when the
 * markers do not pair up.
 */
export function locateSection(text: string): SectionLocation | undefined {
  const lines = splitLines(text);
  const begins: number[] = [];
  const ends: number[] = [];
  let fence: string | undefined;
  for (const [index, { text: line }] of lines.entries()) {
    const inside = begins.length > ends.length;
    if (!inside) {
      const opener = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        const closer = /^ {0,3}(`{3,}|~{3,})[ \t]*$/u.exec(line)?.[1];
        if (closer !== undefined && closer[0] === fence[0] && closer.length >= fence.length) {
          fence = undefined;
        }
        continue;
      }
      if (opener !== undefined) {
        fence = opener;
        continue;
      }
    }
    if (isBegin(line)) begins.push(index);
    else if (isEnd(line)) ends.push(index);
  }
  if (begins.length === 0 && ends.length === 0) return undefined;
  const where = (index: number | undefined) => (index === undefined ? '?' : index + 1);
  if (begins.length !== 1 || ends.length !== 1 || (ends[0] ?? 0) < (begins[0] ?? 0)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `The file's mnemo page markers do not pair up (begin markers on lines ${begins.map(where).join(', ') || 'none'}, ` +
        `end markers on lines ${ends.map(where).join(', ') || 'none'}). Keep exactly one "${BEGIN_MARKER_PREFIX} …-->" line ` +
        `and one "${END_MARKER}" line after it; nothing was changed.`,
    );
  }
  const first = begins[0] ?? 0;
  const last = ends[0] ?? 0;
  return {
    start: lines[first]?.start ?? 0,
    end: lines[last]?.end ?? text.length,
    line: first + 1,
    lines: lines.slice(first, last + 1).map((line) => line.text),
  };
}

/** The line ending the file uses (its first one), `\n` for a file without any. */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  const match = /\r\n|\n/u.exec(text);
  return match?.[0] === '\r\n' ? '\r\n' : '\n';
}

/**
 * `text` with its managed section replaced by `section` (lines joined by `\n`), or with the section
 * appended after a blank line when it has none. The bytes outside the section are unchanged.
 * Throws INVALID_INPUT like {@link locateSection}.
 */
export function spliceSection(text: string, section: string): string {
  const eol = lineEndingOf(text);
  const block = section.split('\n').join(eol);
  const location = locateSection(text);
  if (location !== undefined) {
    return text.slice(0, location.start) + block + text.slice(location.end);
  }
  if (text.length === 0) return block + eol;
  const tail = text.endsWith('\n') || text.endsWith('\r') ? '' : eol;
  return `${text}${tail}${eol}${block}${eol}`;
}
