/**
 * Text clean-up shared by every rendered field: what stored text may carry into a session and in what
 * shape. The order matters: line structure and control characters are fixed first, images dropped next,
 * and marker neutralisation runs last so that nothing after it can reassemble a marker.
 */
import { neutraliseMarkers } from './neutralise-markers.js';
import { stripImages } from './strip-images.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
/** Everything a terminal, editor or model may treat as a line break. */
const LINE_BREAK = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/gu;
/** Bidi embeddings, overrides and isolates: they reorder what a reader sees ("Trojan Source"). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/gu;
/** Other C0/C1 controls and DEL, e.g. ANSI escapes that could repaint a terminal line. */
// eslint-disable-next-line no-control-regex -- matching control characters is this regex's purpose
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/gu;
/** Header fields are identifiers and closed vocabularies; anything else is replaced. */
const FIELD_UNSAFE = /[^\w.:@/+-]/gu;
const MAX_FIELD_LENGTH = 64;
const MAX_TITLE_LENGTH = 120;
const MAX_NOTE_LENGTH = 160;

/**
 * Makes `text` safe to split into lines: well-formed UTF-16, `\n` as the only line break, no bidi
 * controls, and other control characters shown as U+FFFD so that tampering stays visible. Tabs are kept.
 */
export function normaliseControls(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(LINE_BREAK, '\n')
    .replace(BIDI_CONTROL, '')
    .replace(CONTROL, '\uFFFD');
}

/**
 * The body of one memory as it may be quoted: controls normalised, blank-line runs collapsed to one and
 * trimmed at both ends (blank lines carry no meaning and would only spend the token budget), images
 * dropped, frame-marker look-alikes neutralised. The result may contain `\n`; quoting is the caller's job.
 */
export function sanitiseBody(text: string, remoteImageLabels: ReadonlySet<string>): string {
  const lines = normaliseControls(text).split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    const blank = line.trim() === '';
    if (blank && (kept.length === 0 || kept.at(-1) === '')) continue;
    kept.push(blank ? '' : line);
  }
  if (kept.at(-1) === '') kept.pop();
  return neutraliseMarkers(stripImages(kept.join('\n'), remoteImageLabels));
}

/**
 * One header field (id, kind, origin, flag) flattened to a short single token, or `fallback` when
 * nothing usable is left. Fails closed: a missing origin renders as the fallback, never as blank.
 */
export function flattenField(value: string | null | undefined, fallback: string): string {
  const flat = (value ?? '').trim().replace(FIELD_UNSAFE, '_').slice(0, MAX_FIELD_LENGTH);
  return flat === '' ? fallback : neutraliseMarkers(flat);
}

/** A header note flattened onto one line, neutralised like stored text; undefined when blank. */
export function flattenNote(note: string): string | undefined {
  const flat = normaliseControls(note).replace(/\s+/gu, ' ').trim();
  if (flat === '') return undefined;
  return neutraliseMarkers(Array.from(flat).slice(0, MAX_NOTE_LENGTH).join(''));
}

/** A caller-supplied title flattened onto one line and neutralised like stored text. */
export function flattenTitle(title: string): string {
  const flat = normaliseControls(title).replace(/\s+/gu, ' ').trim();
  return neutraliseMarkers(Array.from(flat).slice(0, MAX_TITLE_LENGTH).join(''));
}
