/**
 * How a memory's text appears on the project page, and how a line of it survives the trip through
 * Markdown and back. Stored text may hold anything: the page's own markers, headings, code fences,
 * HTML, a line shaped like an entry's id line. None of it may change the page's structure, and what a
 * person did not edit must read back exactly as it was written. Two mechanisms do that:
 *
 * - Structure by position: every line of an entry's text is inside the list item (the first after
 *   `- `, the rest indented two spaces), so no stored line can ever be a marker, a heading or an entry
 *   of the page's own, which all start at column 0.
 * - A reversible escape for what Markdown would still read as structure inside the item (a heading, a
 *   fence that would swallow the id line, an HTML block, a setext underline, an id-line look-alike): a
 *   backslash is put in front, which Markdown renders as the character itself, and the parser takes
 *   exactly that backslash away again.
 *
 * Marker look-alikes are replaced besides (defence in depth, as the recall renderer does for frames).
 * Pure.
 */
import { redactSecrets } from '../redact/redact-secrets.js';
import { neutraliseMarkers } from '../render/neutralise-markers.js';
import { normaliseControls } from '../render/sanitise-text.js';

/** What a page-marker look-alike in stored text becomes on the page. */
export const PAGE_MARKER_REMOVED = '[page marker removed]';

const PAGE_MARKER_LOOKALIKE = /mnemo\s*:\s*page/giu;

/**
 * After up to three spaces, what Markdown would read as block structure: a backslash (the escape
 * itself), an ATX heading, a fence, an HTML block, a setext underline or thematic break.
 */
const STRUCTURAL = /^(?:\\|#|`{3}|~{3}|<|(?:=+|-+)[ \t]*$|(?:[-*_][ \t]*){3,}$)/u;
/** An id-line look-alike, escaped at any indentation (backslashes before it included). */
const ID_LOOKALIKE = /^\\*`mnemo /u;
const ESCAPED_ID_LOOKALIKE = /^\\+`mnemo /u;

/**
 * The text a memory shows on the page: secrets redacted at read time (R7), controls and line breaks
 * normalised, page and frame marker look-alikes replaced, then {@link normalisePageText}.
 */
export function pageText(content: string): string {
  const clean = normalisePageText(normaliseControls(redactSecrets(content).text));
  return normalisePageText(
    neutraliseMarkers(clean.replace(PAGE_MARKER_LOOKALIKE, PAGE_MARKER_REMOVED)),
  );
}

/**
 * The comparable form of an entry's text, applied alike to what the page shows and to what is read
 * back: trailing whitespace of each line dropped (editors strip it), runs of blank lines collapsed to
 * one, blank lines at both ends removed. Two texts that differ only so are the same entry.
 */
export function normalisePageText(text: string): string {
  const lines = text.replace(/\r\n?/gu, '\n').split('\n');
  const kept: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/[ \t]+$/u, '');
    if (line === '' && (kept.length === 0 || kept.at(-1) === '')) continue;
    kept.push(line);
  }
  while (kept.at(-1) === '') kept.pop();
  return kept.join('\n');
}

function split(line: string): { spaces: string; rest: string } {
  const spaces = /^ */u.exec(line)?.[0] ?? '';
  return { spaces, rest: line.slice(spaces.length) };
}

/** One line of an entry's text as the page writes it (before the item's own indentation). */
export function escapeLine(line: string): string {
  const { spaces, rest } = split(line);
  const structural = spaces.length <= 3 && STRUCTURAL.test(rest);
  return structural || ID_LOOKALIKE.test(rest) ? `${spaces}\\${rest}` : line;
}

/** The inverse of {@link escapeLine}: `unescapeLine(escapeLine(x)) === x` for every line. */
export function unescapeLine(line: string): string {
  const { spaces, rest } = split(line);
  if (!rest.startsWith('\\')) return line;
  return spaces.length <= 3 || ESCAPED_ID_LOOKALIKE.test(rest) ? `${spaces}${rest.slice(1)}` : line;
}
