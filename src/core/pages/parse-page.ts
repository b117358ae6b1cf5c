/**
 * Reads a project page back: its entries (each with its memory id, or none for an entry a person
 * added), the section each sits in, and the index of ids the page was written with. Strict where a
 * guess could cost a memory: anything it cannot place is an INVALID_INPUT naming the line and what to
 * do, and nothing is planned from a page that does not parse. Lenient where people are: `*` and `+`
 * bullets, tab indentation, trailing spaces, headings in any case, and any text above the first
 * section. Pure.
 */
import { MemoryError } from '../errors.js';
import { isMemoryId, type MemoryId } from '../memory.js';
import {
  BEGIN_MARKER_PREFIX,
  END_MARKER,
  ID_LINE,
  ID_LINE_LIKE,
  INDEX_CLOSE,
  INDEX_OPEN,
  PAGE_FORMAT_VERSION,
  PAGE_SECTIONS,
  type PageSectionKey,
} from './page-format.js';
import { normalisePageText, unescapeLine } from './page-text.js';

export interface ParsedEntry {
  /** The memory it shows; null for an entry a person added. */
  readonly id: MemoryId | null;
  readonly section: PageSectionKey;
  /** Unescaped and normalised (`normalisePageText`), comparable with `pageText`. */
  readonly text: string;
  /** 1-based line in the file where the entry starts. */
  readonly line: number;
}

export interface ParsedPage {
  readonly entries: readonly ParsedEntry[];
  /** The ids the page was written with; null when the index is missing (no deletion can be told). */
  readonly index: readonly MemoryId[] | null;
}

const BULLET = /^[-*+](?: (.*))?$/u;
const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/u;
const ITALIC_LINE = /^_.*_$/u;

function fail(line: number, message: string): never {
  throw new MemoryError('INVALID_INPUT', `Project page, line ${line}: ${message}`);
}

/** A continuation line without the item's indentation: two spaces, or a tab, or one space. */
function deindent(line: string): string {
  if (line.startsWith('  ')) return line.slice(2);
  if (line.startsWith('\t') || line.startsWith(' ')) return line.slice(1);
  return line;
}

function sectionNamed(name: string, line: number): PageSectionKey {
  const wanted = name.trim().toLowerCase();
  const section = PAGE_SECTIONS.find((candidate) => candidate.heading.toLowerCase() === wanted);
  if (section === undefined) {
    fail(
      line,
      `unknown section "${name.slice(0, 60)}". The page has these sections: ${PAGE_SECTIONS.map((s) => s.heading).join(', ')}.`,
    );
  }
  return section.key;
}

/**
 * Parses the managed section: `lines` from its begin marker to its end marker (line breaks already
 * `\n`), `firstLine` the begin marker's 1-based line in the file. Throws INVALID_INPUT.
 */
export function parsePage(lines: readonly string[], firstLine = 1): ParsedPage {
  const at = (index: number): number => firstLine + index;
  const begin = lines[0] ?? '';
  if (!begin.startsWith(BEGIN_MARKER_PREFIX))
    fail(at(0), 'the page does not start with its begin marker.');
  const version = /\bv(\d+)\b/u.exec(begin.slice(BEGIN_MARKER_PREFIX.length))?.[1];
  if (version !== undefined && Number(version) > PAGE_FORMAT_VERSION) {
    fail(
      at(0),
      `the page was written by a newer mnemo (format v${version}); upgrade mnemo to read it.`,
    );
  }
  if (lines.at(-1)?.trimEnd() !== END_MARKER)
    fail(at(lines.length - 1), 'the page does not end with its end marker.');

  const entries: ParsedEntry[] = [];
  const ids = new Map<MemoryId, number>();
  const seenSections = new Set<PageSectionKey>();
  let section: PageSectionKey | undefined;
  let index: MemoryId[] | null = null;
  const body = lines.slice(1, -1).map((line) => line.trimEnd());

  for (let i = 0; i < body.length; i += 1) {
    const line = body[i] ?? '';
    const lineNo = at(i + 1);
    if (index !== null) {
      if (line !== '')
        fail(lineNo, 'text after the index; the index must be the last part of the page.');
      continue;
    }
    if (line === '') continue;
    if (line.startsWith(INDEX_OPEN)) {
      index = [];
      for (i += 1; i < body.length && body[i] !== INDEX_CLOSE; i += 1) {
        const id = (body[i] ?? '').trim();
        if (id === '') continue;
        if (!isMemoryId(id))
          fail(at(i + 1), `"${id.slice(0, 40)}" in the index is not a memory id.`);
        index.push(id);
      }
      if (i >= body.length) fail(lineNo, 'the index is not closed with "-->".');
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      const level = heading[1]?.length ?? 0;
      if (level === 3) {
        section = sectionNamed(heading[2] ?? '', lineNo);
        if (seenSections.has(section)) fail(lineNo, `the section "${heading[2]}" appears twice.`);
        seenSections.add(section);
      } else if (section !== undefined) {
        fail(
          lineNo,
          'a heading inside the sections. Only the "###" section headings belong there.',
        );
      }
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet !== null) {
      if (section === undefined) fail(lineNo, 'an entry before the first section heading.');
      const end = entryEnd(body, i);
      entries.push(readEntry(body.slice(i, end), section, lineNo, ids));
      i = end - 1;
      continue;
    }
    if (section === undefined || ITALIC_LINE.test(line)) continue;
    if (/^\s/u.test(line))
      fail(lineNo, 'an indented line outside an entry. Start an entry with "- ".');
    fail(lineNo, 'text outside an entry. Start an entry with "- ", or delete the line.');
  }
  return { entries, index };
}

/** Where the entry starting at `start` ends: before the first line that is neither indented nor blank. */
function entryEnd(body: readonly string[], start: number): number {
  let end = start + 1;
  let last = start;
  for (; end < body.length; end += 1) {
    const line = body[end] ?? '';
    if (line === '') continue;
    if (!/^[ \t]/u.test(line)) break;
    last = end;
  }
  return last + 1;
}

function readEntry(
  lines: readonly string[],
  section: PageSectionKey,
  lineNo: number,
  ids: Map<MemoryId, number>,
): ParsedEntry {
  const text: string[] = [unescapeLine(BULLET.exec(lines[0] ?? '')?.[1] ?? '')];
  let id: MemoryId | null = null;
  for (let j = 1; j < lines.length; j += 1) {
    const line = lines[j] ?? '';
    const where = lineNo + j;
    if (ID_LINE_LIKE.test(line)) {
      const match = ID_LINE.exec(line);
      if (match === null || !isMemoryId(match[1] ?? '')) {
        fail(
          where,
          'this id line is damaged. Restore it as "  `mnemo <26-character id>`", or delete it to add the entry as a new memory.',
        );
      }
      if (id !== null || j !== lines.length - 1) {
        fail(where, "an entry's id line must be its last line, and it has only one.");
      }
      id = match[1] ?? null;
      continue;
    }
    text.push(line === '' ? '' : unescapeLine(deindent(line)));
  }
  const normalised = normalisePageText(text.join('\n'));
  if (normalised === '')
    fail(lineNo, 'an empty entry. Write its text after "- ", or delete the line.');
  if (id !== null) {
    const previous = ids.get(id);
    if (previous !== undefined)
      fail(lineNo, `memory ${id} is on the page twice (also line ${previous}).`);
    ids.set(id, lineNo);
  }
  return { id, section, text: normalised, line: lineNo };
}
