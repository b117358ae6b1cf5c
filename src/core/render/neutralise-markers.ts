/**
 * Neutralises text that imitates the recall frame's own markers or notice, so stored text cannot close
 * the frame early or open a fake one (threat model R2). Detection runs on a folded copy
 * (detection-copy.ts); the matching *original* span is replaced, so unrelated text is kept verbatim.
 */
import { buildDetectionCopy } from './detection-copy.js';

/** What a neutralised marker look-alike becomes in rendered output. */
export const FRAME_MARKER_REMOVED = '[frame marker removed]';

/** Up to eight non-alphanumeric characters: `mnemo-recall`, `mnemo_recall`, `mnemo•~recall`. */
const SEP = '[^\\p{L}\\p{N}]{0,8}';

interface MarkerPattern {
  regex: RegExp;
  /**
   * Extra check on a match; absent means every match counts. `before` is the original character just
   * before the match, because the detection copy has lost the whitespace that separates words.
   */
  accept?: (match: string, before: string) => boolean;
}

// The copy has no whitespace, so every pattern matches the folded letters back to back. Lookbehinds
// pin a match to the start of a bracket run, which keeps each pattern linear on runs of `<`.
const PATTERNS: readonly MarkerPattern[] = [
  {
    // The frame's tag, with whatever marker syntax surrounds it. A bare `mnemo recall` (the CLI command,
    // a note about mnemo itself) is kept: only tag-shaped uses can pass for a frame line.
    regex: new RegExp(
      `(?<![<\\/])(?:[<\\/]+${SEP})?(?:end${SEP})?mnemo${SEP}recall(?:${SEP}nonce${SEP}[0-9a-f]{0,128})?>*`,
      'gu',
    ),
    accept: (match, before) =>
      /^[</]|nonce|>$/u.test(match) || (match.startsWith('end') && !/[\p{L}\p{N}]/u.test(before)),
  },
  // The edges of any triple-bracket tag that names our tag or a nonce (`<<<end nonce=…>>>`), including
  // the halves a nested marker leaves behind. `recall` alone counts only right after the brackets, so
  // herestrings (`cat <<< "…recall…"`) and REPL prompts (`recall:\n>>> x`) survive. Bounded gaps keep
  // the scan linear.
  {
    regex: new RegExp(
      `(?<!<)<{3,}(?:[^<>]{0,80}?(?:nonce|mnemo)|${SEP}(?:end${SEP})?recall)(?:[^<>]{0,80}>+)?`,
      'gu',
    ),
  },
  { regex: new RegExp(`(?:recall${SEP})?nonce${SEP}[\\p{L}\\p{N}]{0,128}${SEP}>{3,}`, 'gu') },
  // Our notice sentence, which would make a fake frame inside the quote look authentic.
  {
    regex: new RegExp(`recalledmemor(?:y|ies)${SEP}quoteddata|quoteddatafromearliersessions`, 'gu'),
  },
];

/** Replacement passes are bounded; a text still matching afterwards is replaced whole (fail closed). */
const MAX_PASSES = 8;

/**
 * Replaces every frame-marker or notice look-alike in `text` with {@link FRAME_MARKER_REMOVED}.
 * Catches case and spacing variants, NFKC compatibility forms (fullwidth, mathematical letters),
 * zero-width, bidi and soft-hyphen insertions, combining marks, angle-quote and Cyrillic/Greek
 * look-alikes, and markers nested inside markers. The result never contains a look-alike.
 */
export function neutraliseMarkers(text: string): string {
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const spans = findMarkerSpans(current);
    if (spans.length === 0) return current;
    current = replaceSpans(current, spans);
  }
  return findMarkerSpans(current).length === 0 ? current : FRAME_MARKER_REMOVED;
}

/** True when `text` holds anything {@link neutraliseMarkers} would replace. */
export function containsMarkerLookalike(text: string): boolean {
  return findMarkerSpans(text).length > 0;
}

type Span = readonly [start: number, end: number];

function findMarkerSpans(text: string): Span[] {
  const copy = buildDetectionCopy(text);
  const spans: Span[] = [];
  for (const { regex, accept } of PATTERNS) {
    for (const match of copy.text.matchAll(regex)) {
      const first = match.index;
      const start = copy.starts[first] ?? 0;
      if (accept !== undefined && !accept(match[0], lastChar(text.slice(0, start)))) continue;
      const last = first + match[0].length - 1;
      spans.push([start, copy.ends[last] ?? text.length]);
    }
  }
  return spans;
}

function replaceSpans(text: string, spans: Span[]): string {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let out = '';
  let cursor = 0;
  let open: [number, number] | undefined;
  for (const [start, end] of sorted) {
    if (open !== undefined && start <= open[1]) {
      open[1] = Math.max(open[1], end);
      continue;
    }
    if (open !== undefined) {
      out += text.slice(cursor, open[0]) + FRAME_MARKER_REMOVED;
      cursor = open[1];
    }
    open = [start, end];
  }
  if (open !== undefined) {
    out += text.slice(cursor, open[0]) + FRAME_MARKER_REMOVED;
    cursor = open[1];
  }
  return out + text.slice(cursor);
}

function lastChar(text: string): string {
  return Array.from(text.slice(-2)).pop() ?? '';
}
