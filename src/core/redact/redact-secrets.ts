/**
 * Secret redaction at the write boundary. One pass collects findings from every detector — provider shapes,
 * credentials in URLs and headers, PEM private keys, secret-named assignments, base64/hex runs whose
 * decoding holds a secret, and shapes split over whitespace or invisible characters — merges overlapping
 * spans and replaces each with `[REDACTED:<kind>]`. Passes repeat until nothing new is found, so redacting
 * twice equals redacting once.
 */
import { findAssignedSecrets } from './assignments.js';
import { findBase64Runs, findHexRuns } from './encoding.js';
import { countInvisible, stripInvisible } from './invisible.js';
import {
  CONTEXT_PATTERNS,
  type Finding,
  placeholder,
  type RedactionKind,
  SECRET_PATTERNS,
  type SecretPattern,
} from './secret-patterns.js';
import { findSplitSecrets } from './split-view.js';

/** Input beyond this many UTF-16 units is cut (at whitespace when near) and never scanned or returned. */
export const MAX_REDACT_CHARS = 1_048_576;

/** Options for {@link redactSecrets}. */
export interface RedactOptions {
  /** Cap on the scanned and returned text; default {@link MAX_REDACT_CHARS}. Minimum 256. */
  readonly maxChars?: number;
}

/** The redacted text and what was removed. */
export interface RedactionResult {
  readonly text: string;
  /** Number of spans replaced. */
  readonly redactions: number;
  /** Kinds replaced, each once, in order of first appearance. */
  readonly kinds: readonly RedactionKind[];
  /** True when the input exceeded the cap and its tail was dropped. */
  readonly truncated: boolean;
}

const MAX_DECODE_DEPTH = 2;
const MAX_ROUNDS = 3;
const PLACEHOLDER = /\[REDACTED:[a-z_]{1,40}\]/g;

function patternFindings(text: string, patterns: readonly SecretPattern[]): Finding[] {
  const findings: Finding[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern.regex)) {
      // Context patterns (flag `d`) redact capture group 1 only; provider patterns the whole match.
      const [start, end] = match.indices?.[1] ?? [match.index, match.index + match[0].length];
      const value = text.slice(start, end);
      if (pattern.validate !== undefined && !pattern.validate(value)) continue;
      findings.push({ start, end, kind: pattern.kind });
    }
  }
  return findings;
}

const PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// The body of a key whose END line is missing (truncated paste): the lines that follow BEGIN while they
// are base64 chunks or `Name: value` headers, with real or JSON-escaped newlines. Prose after it stays.
const PEM_BODY =
  /[ \t]{0,16}[A-Za-z0-9+/=]{0,4096}(?:[ \t]{0,16}(?:\r?\n|\\n)[ \t]{0,16}(?:[A-Za-z0-9+/=]{1,4096}|[A-Za-z][A-Za-z-]{0,40}:[^\n\\]{0,200})(?=[ \t]{0,16}(?:\r?\n|\\n|$|["']))){0,400}/y;
const MAX_PEM = 20_000;

function privateKeyFindings(text: string): Finding[] {
  const ends = [...text.matchAll(PEM_END)].map((m) => m.index + m[0].length);
  const findings: Finding[] = [];
  let consumed = 0;
  let endCursor = 0;
  for (const begin of text.matchAll(PEM_BEGIN)) {
    if (begin.index < consumed) continue;
    while (endCursor < ends.length && (ends[endCursor] ?? 0) <= begin.index) endCursor++;
    const end = ends[endCursor];
    let stop: number;
    if (end !== undefined && end - begin.index <= MAX_PEM) {
      stop = end;
    } else {
      PEM_BODY.lastIndex = begin.index + begin[0].length;
      PEM_BODY.exec(text);
      stop = PEM_BODY.lastIndex;
    }
    findings.push({ start: begin.index, end: stop, kind: 'private_key' });
    consumed = stop;
  }
  return findings;
}

function encodedFindings(text: string, depth: number): Finding[] {
  const findings: Finding[] = [];
  for (const run of [...findBase64Runs(text), ...findHexRuns(text)]) {
    for (const decoded of run.decoded) {
      const inner = directFindings(decoded, depth + 1)[0];
      if (inner !== undefined) {
        // The whole run goes: a partial redaction of an encoding would leave the rest decodable.
        findings.push({ start: run.start, end: run.end, kind: inner.kind });
        break;
      }
    }
  }
  return findings;
}

function directFindings(text: string, depth: number): Finding[] {
  return [
    ...patternFindings(text, SECRET_PATTERNS),
    ...patternFindings(text, CONTEXT_PATTERNS),
    ...privateKeyFindings(text),
    ...findAssignedSecrets(text),
    ...(depth < MAX_DECODE_DEPTH ? encodedFindings(text, depth) : []),
  ];
}

/** Merges overlapping or touching findings; a merged span keeps the kind of its earliest finding. */
function mergeFindings(findings: Finding[]): Finding[] {
  const sorted = findings
    .filter((f) => f.end > f.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const finding of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && finding.start <= last.end) {
      if (finding.end > last.end) merged[merged.length - 1] = { ...last, end: finding.end };
    } else {
      merged.push(finding);
    }
  }
  return merged;
}

function outsidePlaceholders(text: string, findings: Finding[]): Finding[] {
  const spans = [...text.matchAll(PLACEHOLDER)].map((m) => [m.index, m.index + m[0].length]);
  if (spans.length === 0) return findings;
  return findings.filter((f) => !spans.some(([s = 0, e = 0]) => f.start >= s && f.end <= e));
}

function cap(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  // Room for the marker, so the returned text is itself under the cap and a second call changes nothing.
  const budget = maxChars - 64;
  let cut = budget;
  // Cut at whitespace when one is near, so a secret straddling the cut is dropped whole, not halved.
  for (let i = budget; i > budget - 1024 && i > 0; i--) {
    if (/\s/.test(text[i] ?? '')) {
      cut = i;
      break;
    }
  }
  if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? '')) cut--;
  return {
    text: `${text.slice(0, cut)}\n[TRUNCATED:${text.length - cut} characters not scanned]`,
    truncated: true,
  };
}

/**
 * Replaces every secret found in `text` with `[REDACTED:<kind>]`. Run it before anything is stored,
 * indexed, embedded or logged. Pure and total: non-string input yields empty text.
 */
export function redactSecrets(text: string, options: RedactOptions = {}): RedactionResult {
  if (typeof text !== 'string') return { text: '', redactions: 0, kinds: [], truncated: false };
  const maxChars = Math.max(256, options.maxChars ?? MAX_REDACT_CHARS);
  const capped = cap(text, maxChars);
  let current = capped.text;
  let redactions = 0;
  const kinds: RedactionKind[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = [...directFindings(current, 0), ...findSplitSecrets(current, SECRET_PATTERNS)];
    const merged = mergeFindings(outsidePlaceholders(current, found));
    if (merged.length === 0) break;
    let out = '';
    let at = 0;
    for (const finding of merged) {
      out += current.slice(at, finding.start) + placeholder(finding.kind);
      at = finding.end;
      if (!kinds.includes(finding.kind)) kinds.push(finding.kind);
    }
    current = out + current.slice(at);
    redactions += merged.length;
  }
  // Placeholders can be longer than what they replace; re-cap so the output obeys the same bound.
  const bounded = cap(current, maxChars);
  return {
    text: bounded.text,
    redactions,
    kinds,
    truncated: capped.truncated || bounded.truncated,
  };
}

/** What the write boundary stores: invisible characters stripped, then secrets redacted. */
export interface SanitisedText extends RedactionResult {
  /** UTF-16 code units of invisible characters removed before redaction. */
  readonly invisibleRemoved: number;
}

/** Strips invisible Unicode, then redacts secrets: the one call the write path makes on stored text. */
export function sanitiseForStorage(text: string, options: RedactOptions = {}): SanitisedText {
  if (typeof text !== 'string') {
    return { text: '', redactions: 0, kinds: [], truncated: false, invisibleRemoved: 0 };
  }
  return {
    ...redactSecrets(stripInvisible(text), options),
    invisibleRemoved: countInvisible(text),
  };
}
