/**
 * What a captured fix carries besides "fixed: <command> now passes": the end of the error it fixed and the
 * edits the session made between that failure and the passing run, so a later session learns what was
 * wrong and what changed, not only that something passed.
 *
 * The evidence is read from the session's own stored rows (the `error` capture of the command and the
 * `Edited …` captures after it), which the write path has already redacted; the fix is redacted again
 * when it is written. Which rows may lend their text is decided by their channel-given origin and review
 * state, never by their words ({@link usableEvidence}): a fix is written as its own channel's origin, so a
 * row less trusted than that channel, written while its session was tainted, or held for review must not
 * lend its text to it (threat model principle 8: deriving never raises trust). Pure.
 */
import type { MemoryKind, QuarantineState } from '../memory.js';
import { isMoreTrusted, type OriginClass, parseOriginClass } from '../origin/origin-class.js';
import { normaliseToolName } from '../origin/tool-names.js';
import { capText } from './cap-text.js';

/** Bounds of a fix's evidence, in UTF-16 code units or items. */
export const FIX_EVIDENCE_CAPS = Object.freeze({
  /** The end of the error text kept: the summary of a failing run is usually at its end. */
  errorTail: 600,
  /** One edit line. */
  editLine: 200,
  /** Edit lines listed; the rest are counted. */
  edits: 5,
  /** The whole fix text, headings included. */
  total: 2000,
});

/** Heading of the error part; also how {@link fixCommandOf} finds where the command ends. */
export const FIX_ERROR_HEADING = 'Error it fixed (end):';
/** Heading of the edits part. */
export const FIX_EDITS_HEADING = 'Edits since the failure:';
const WITHHELD_PREFIX = 'Evidence withheld:';

/** A stored row as the evidence reads it. */
export interface EvidenceRow {
  readonly id: string;
  readonly kind: MemoryKind;
  readonly origin: string;
  readonly originTool: string | null;
  readonly content: string;
  readonly quarantine: QuarantineState;
  readonly tainted: boolean;
  readonly createdAt: string;
}

/** What a fix is composed from. */
export interface FixEvidence {
  /** The command that now passes, as the capture keeps it (capped, trimmed). */
  readonly command: string;
  /** The session's latest `error` row of the command, if usable. */
  readonly error?: EvidenceRow;
  /** The session's edit rows after the failure, any order. */
  readonly edits: readonly EvidenceRow[];
  /** Rows that would have been evidence but may not lend their text (see {@link usableEvidence}). */
  readonly withheld: number;
}

const EDIT_TOOLS: ReadonlySet<string> = new Set(['edit', 'write', 'multiedit', 'notebookedit']);
const ERROR_PREFIX = 'Command failed: ';

/** Chronological order: creation time, then id (ULIDs sort by creation within a millisecond). */
function byCreation(a: EvidenceRow, b: EvidenceRow): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** True for an edit capture: the kind and the producing tool (both from the channel) say so. */
export function isEditRow(row: Pick<EvidenceRow, 'kind' | 'originTool'>): boolean {
  return row.kind === 'capture' && EDIT_TOOLS.has(normaliseToolName(row.originTool ?? ''));
}

/**
 * Whether a row may lend its text to a fix written with `fixOrigin`: not held or refused in review, not
 * written in a tainted window, and at least as trusted as the fix's own channel. Fails closed: an origin
 * outside the vocabulary reads as `unknown`.
 */
export function usableEvidence(
  row: Pick<EvidenceRow, 'origin' | 'quarantine' | 'tainted'>,
  fixOrigin: OriginClass,
): boolean {
  if (row.quarantine !== 'none' || row.tainted) return false;
  return !isMoreTrusted(fixOrigin, parseOriginClass(row.origin));
}

/**
 * Splits the candidate rows of one fix into evidence and a withheld count: the edits are those after the
 * error (a dedupe can leave older rows of the session in the list), and each row is checked by
 * {@link usableEvidence}.
 */
export function selectEvidence(
  command: string,
  error: EvidenceRow,
  candidates: readonly EvidenceRow[],
  fixOrigin: OriginClass,
): FixEvidence {
  let withheld = 0;
  const edits: EvidenceRow[] = [];
  for (const row of candidates) {
    if (!isEditRow(row) || byCreation(row, error) <= 0) continue;
    if (usableEvidence(row, fixOrigin)) edits.push(row);
    else withheld += 1;
  }
  const errorUsable = usableEvidence(error, fixOrigin);
  if (!errorUsable) withheld += 1;
  return { command, ...(errorUsable ? { error } : {}), edits, withheld };
}

/** The error text of an `error` capture: its content after `Command failed: <command>`. */
export function errorBodyOf(content: string, command: string): string {
  const head = `${ERROR_PREFIX}${command}\n`;
  if (content.startsWith(head)) return content.slice(head.length);
  // Another shape (a capture of an older build): drop the first line, which names the command.
  const newline = content.indexOf('\n');
  return newline === -1 ? '' : content.slice(newline + 1);
}

/** The last `max` code units of `text`, started at a line when one begins near the cut, marked `…`. */
export function tailOf(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  let start = trimmed.length - max;
  const low = trimmed.charCodeAt(start);
  // Never start on the second half of a surrogate pair: storage refuses a lone surrogate.
  if (low >= 0xdc00 && low <= 0xdfff) start += 1;
  let tail = trimmed.slice(start);
  const newline = tail.indexOf('\n');
  if (newline !== -1 && newline < max / 4) tail = tail.slice(newline + 1);
  return `… ${tail.trimStart()}`;
}

function flat(text: string, max: number): string {
  // Cut before the regex so its cost is bounded by the cap, not the row.
  const line = capText(text, max * 4)
    .text.replace(/\s+/g, ' ')
    .trim();
  const capped = capText(line, max - 1);
  return capped.dropped > 0 ? `${capped.text}…` : capped.text;
}

function editLines(edits: readonly EvidenceRow[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const edit of [...edits].sort(byCreation)) {
    const line = flat(edit.content, FIX_EVIDENCE_CAPS.editLine);
    if (line.length === 0 || seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  const shown = lines.slice(0, FIX_EVIDENCE_CAPS.edits).map((line) => `- ${line}`);
  const more = lines.length - FIX_EVIDENCE_CAPS.edits;
  if (more > 0) shown.push(`- … ${more} more edit${more === 1 ? '' : 's'}`);
  return shown;
}

/**
 * The text of a fix: `fixed: <command> now passes`, then the end of the error it fixed and the edits since
 * the failure, oldest first, and how many rows were withheld. Never longer than `FIX_EVIDENCE_CAPS.total`
 * unless the first line alone is (the capture caps a command at 2,000 characters): then it is the first
 * line only. Lines that do not fit are left out whole, and the error's end gives way before the edits.
 */
export function composeFix(evidence: FixEvidence): string {
  const first = `fixed: ${evidence.command} now passes`;
  const later: string[] = [];
  const edits = editLines(evidence.edits);
  if (edits.length > 0) later.push(FIX_EDITS_HEADING, ...edits);
  if (evidence.withheld > 0) {
    const rows = `${evidence.withheld} row${evidence.withheld === 1 ? '' : 's'}`;
    later.push(`${WITHHELD_PREFIX} ${rows} held for review or less trusted than the command`);
  }
  let used = first.length;
  const kept: string[] = [];
  for (const line of later) {
    if (used + 1 + line.length > FIX_EVIDENCE_CAPS.total) break;
    kept.push(line);
    used += 1 + line.length;
  }
  // A heading left without any of its lines says nothing.
  if (kept.at(-1) === FIX_EDITS_HEADING) kept.pop();
  const body =
    evidence.error === undefined ? '' : errorBodyOf(evidence.error.content, evidence.command);
  // What the other lines left of the total, less the heading and its two newlines.
  const room = FIX_EVIDENCE_CAPS.total - used - FIX_ERROR_HEADING.length - 2;
  const keep = Math.min(FIX_EVIDENCE_CAPS.errorTail, room);
  const error =
    body.trim().length === 0 || keep < 40 ? [] : [FIX_ERROR_HEADING, tailOf(body, keep - 2)];
  return [first, ...error, ...kept].join('\n');
}

/**
 * The command of a fix as captured: the text between `fixed: ` and ` now passes` at the end of the text or
 * before the evidence's first heading. Undefined for another shape.
 */
export function fixCommandOf(content: string): string | undefined {
  const prefix = 'fixed: ';
  const suffix = ' now passes';
  if (!content.startsWith(prefix)) return undefined;
  let end = -1;
  for (const heading of [FIX_ERROR_HEADING, FIX_EDITS_HEADING, WITHHELD_PREFIX]) {
    const at = content.indexOf(`${suffix}\n${heading}`, prefix.length - 1);
    if (at !== -1 && (end === -1 || at < end)) end = at;
  }
  if (end !== -1) return content.slice(prefix.length, end);
  return content.endsWith(suffix) ? content.slice(prefix.length, -suffix.length) : undefined;
}
