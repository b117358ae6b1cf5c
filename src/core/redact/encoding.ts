/**
 * Finding and decoding base64 and hex runs, so a secret wrapped in an encoding can be rescanned. Decoders
 * are hand-written (no host Buffer/atob) and never throw: malformed input decodes to whatever bytes it
 * holds, and only text that decodes to mostly printable ASCII is worth a rescan.
 */

/** A run of possibly-encoded text in the scanned string, with its decoded form. */
export interface EncodedRun {
  readonly start: number;
  readonly end: number;
  /** Candidate decodings, best first: the whole run, then each line of a wrapped run. */
  readonly decoded: readonly string[];
}

// Standard or URL-safe alphabet, optionally wrapped over lines (base64 -w 76, PEM-like bodies).
const BASE64_RUN =
  /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}(?:[ \t]{0,16}\r?\n[ \t]{0,16}[A-Za-z0-9+/_-]{4,}={0,2}){0,512}/g;
const HEX_RUN = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{24,8192}(?![0-9A-Fa-f])/g;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// Sextet per char code (-1: not base64); `-` and `_` are the URL-safe spellings of 62 and 63.
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTET[ALPHABET.charCodeAt(i)] = i;
SEXTET['-'.charCodeAt(0)] = 62;
SEXTET['_'.charCodeAt(0)] = 63;

/** Decodes base64 or base64url (padding and whitespace ignored) into a Latin-1 string of bytes. */
export function decodeBase64(text: string): string {
  let bits = 0;
  let width = 0;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (SEXTET[code] ?? -1) : -1;
    if (value < 0) continue;
    bits = ((bits << 6) | value) & 0xffffff;
    width += 6;
    if (width >= 8) {
      width -= 8;
      bytes.push((bits >> width) & 0xff);
    }
  }
  return latin1(bytes);
}

function latin1(bytes: readonly number[]): string {
  // Spreading a huge array into String.fromCharCode overflows the argument limit; go in slices.
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192)
    out += String.fromCharCode(...bytes.slice(i, i + 8192));
  return out;
}

function nibble(code: number): number {
  if (code <= 0x39) return code - 0x30;
  return (code | 0x20) - 0x57;
}

/** Decodes an even-length hex string into a Latin-1 string of bytes. */
export function decodeHex(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    bytes.push((nibble(text.charCodeAt(i)) << 4) | nibble(text.charCodeAt(i + 1)));
  }
  return latin1(bytes);
}

/** True when at least 90% of the bytes are printable ASCII or common whitespace, and there are 12+. */
export function isMostlyPrintable(bytes: string): boolean {
  if (bytes.length < 12) return false;
  let printable = 0;
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if ((code >= 0x20 && code < 0x7f) || code === 0x09 || code === 0x0a || code === 0x0d)
      printable++;
  }
  return printable / bytes.length >= 0.9;
}

/** Base64 runs (single or wrapped over lines) whose decoding, or a line's decoding, is mostly printable. */
export function findBase64Runs(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  for (const match of text.matchAll(BASE64_RUN)) {
    const body = match[0];
    const lines = body.split('\n');
    const candidates = [body, ...(lines.length > 1 ? lines : [])]
      .map(decodeBase64)
      .filter(isMostlyPrintable);
    if (candidates.length > 0) {
      runs.push({ start: match.index, end: match.index + body.length, decoded: candidates });
    }
  }
  return runs;
}

/** Even-length hex runs whose decoding is mostly printable (a 40-hex git SHA decodes to noise). */
export function findHexRuns(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  for (const match of text.matchAll(HEX_RUN)) {
    const body = match[0].length % 2 === 0 ? match[0] : match[0].slice(0, -1);
    const decoded = decodeHex(body);
    if (isMostlyPrintable(decoded)) {
      runs.push({ start: match.index, end: match.index + match[0].length, decoded: [decoded] });
    }
  }
  return runs;
}
