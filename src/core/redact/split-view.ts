/**
 * The whitespace-joined view: a key broken over lines by a terminal, split by spaces when pasted, or
 * interleaved with zero-width characters is invisible to a contiguous pattern. The view drops whitespace and
 * invisible code points, remembers where each kept character came from, and lets provider patterns match
 * across the gaps. Natural text joins into token shapes too ("sk-learn is the…"), so a match is accepted only
 * when its fragments look like pieces of one token, and it is trimmed to the fragments that do.
 */
import { isInvisibleCodePoint } from './invisible.js';
import type { Finding, SecretPattern } from './secret-patterns.js';

interface JoinedView {
  readonly text: string;
  /** For each view index, the index in the original text. */
  readonly source: Int32Array;
  /** For each view index, whether whitespace preceded it in the original (a fragment boundary). */
  readonly fragmentStart: Uint8Array;
  /**
   * View indices where a fragment opens with a provider prefix right after a token character of the
   * previous fragment: there a pattern's lookbehind sees the joined neighbour and fails, so these starts
   * are tried one by one.
   */
  readonly prefixStarts: readonly number[];
}

const MAX_GAP = 16;
const MAX_FRAGMENTS = 24;
// Bounds the one-by-one tries on pathological input (thousands of prefix-shaped fragments).
const MAX_PREFIX_STARTS = 2048;

const TOKEN_PREFIX =
  /(?:gh[pousr]_|github_pat_|gl[a-z]{2,5}-|sk-|sk_|rk_|whsec_|AKIA|ASIA|ABIA|ACCA|A3T|AIza|GOCSPX-|xox|xapp-|eyJ|hf_|npm_|pypi-|SG\.|do[por]_v1_|shp|https?:)/y;
const TOKEN_CHAR = /[\w.+/=-]/;

function opensToken(text: string, at: number): boolean {
  TOKEN_PREFIX.lastIndex = at;
  return TOKEN_PREFIX.test(text);
}

const FRAGMENTS = /\S+/gu;
const NON_ASCII = /\P{ASCII}/u;

function buildView(text: string): JoinedView | null {
  const source = new Int32Array(text.length);
  const fragmentStart = new Uint8Array(text.length);
  const prefixStarts: number[] = [];
  const parts: string[] = [];
  let length = 0;
  let lastChar = '';
  for (const match of text.matchAll(FRAGMENTS)) {
    const fragment = match[0];
    const at = match.index;
    const opens = length > 0;
    if (opens && prefixStarts.length < MAX_PREFIX_STARTS && TOKEN_CHAR.test(lastChar)) {
      if (opensToken(text, at)) prefixStarts.push(length);
    }
    const first = length;
    if (!NON_ASCII.test(fragment)) {
      // Fast path: ASCII has no invisible code points, so the fragment is copied whole.
      for (let k = 0; k < fragment.length; k++) source[length + k] = at + k;
      length += fragment.length;
      parts.push(fragment);
    } else {
      for (let i = 0; i < fragment.length; ) {
        const code = fragment.codePointAt(i) ?? 0;
        const width = code > 0xffff ? 2 : 1;
        if (!isInvisibleCodePoint(code)) {
          for (let k = 0; k < width; k++) source[length++] = at + i + k;
          parts.push(fragment.slice(i, i + width));
        }
        i += width;
      }
    }
    if (length > first) {
      fragmentStart[first] = opens ? 1 : 0;
      lastChar = text[source[length - 1] ?? 0] ?? '';
    }
  }
  if (length === text.length) return null;
  return {
    text: parts.join(''),
    source: source.subarray(0, length),
    fragmentStart,
    prefixStarts,
  };
}

// Whether a fragment between the first and the completing one can be a token piece: words ("is",
// "common", "Name") cannot. All-caps chunks can (AWS key ids are upper case and digits).
function couldBeTokenPiece(fragment: string): boolean {
  if (fragment.length < 4) return false;
  return fragment.length >= 16 || !/^(?:[a-z]+|[A-Z][a-z]+)$/.test(fragment);
}

// Whether a fragment after a complete match still belongs to it: it must look random (digits or mixed
// case), so the env name on the next line (`SHELL=…`) or a following word is not swallowed.
function continuesToken(fragment: string): boolean {
  if (fragment.length < 4) return false;
  if (fragment.length >= 16 || /\d/.test(fragment)) return true;
  const tail = fragment.slice(1);
  return /[A-Z]/.test(tail) && /[a-z]/.test(tail);
}

interface ViewRegexes {
  /** Global, without the closing lookahead: in the view the next fragment abuts every split key. */
  readonly scan: RegExp;
  /** Sticky, without lookbehind or lookahead: for starts in {@link JoinedView.prefixStarts}. */
  readonly at: RegExp;
  /** Anchored whole-value test, with the pattern's own boundaries. */
  readonly full: RegExp;
}

const REGEXES = new WeakMap<SecretPattern, ViewRegexes>();

function regexesFor(pattern: SecretPattern): ViewRegexes {
  let regexes = REGEXES.get(pattern);
  if (regexes === undefined) {
    const { source, flags } = pattern.regex;
    const openEnded = source.replace(/\(\?!\[[^\]]*\]\)$/, '');
    const bare = flags.replace('g', '');
    regexes = {
      scan: new RegExp(openEnded, flags),
      at: new RegExp(openEnded.replace(/^\(\?<!\[[^\]]*\]\)/, ''), `${bare}y`),
      full: new RegExp(`^(?:${source})$`, bare),
    };
    REGEXES.set(pattern, regexes);
  }
  return regexes;
}

function endsAtBoundary(view: JoinedView, end: number): boolean {
  if (end >= view.text.length || view.fragmentStart[end] === 1) return true;
  return !/[\w-]/.test(view.text[end] ?? '');
}

function fullMatch(pattern: SecretPattern, value: string): boolean {
  return regexesFor(pattern).full.test(value) && (pattern.validate?.(value) ?? true);
}

/**
 * Chooses the view span to redact for a match that crosses gaps: the fewest fragments that complete the
 * pattern, then any following fragments that still look random. Returns the end index or -1 to reject.
 */
function acceptedEnd(view: JoinedView, start: number, end: number, pattern: SecretPattern): number {
  const cuts: number[] = [];
  for (let i = start + 1; i < end; i++) if (view.fragmentStart[i] === 1) cuts.push(i);
  cuts.push(end);
  if (cuts.length > MAX_FRAGMENTS) return -1;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const gap = (view.source[cuts[i]!] ?? 0) - (view.source[cuts[i]! - 1] ?? 0) - 1;
    if (gap > MAX_GAP) return -1;
  }
  const minimal = cuts.findIndex((cut) => fullMatch(pattern, view.text.slice(start, cut)));
  if (minimal < 0) return -1;
  // Fragments between the first and the completing one must look like token pieces ("is", "the" do not).
  for (let i = 1; i < minimal; i++) {
    if (!couldBeTokenPiece(view.text.slice(cuts[i - 1], cuts[i]))) return -1;
  }
  let accepted = cuts[minimal]!;
  if (!endsAtBoundary(view, accepted)) return -1;
  for (let i = minimal + 1; i < cuts.length; i++) {
    const candidate = cuts[i]!;
    if (!continuesToken(view.text.slice(cuts[i - 1], candidate))) break;
    if (!fullMatch(pattern, view.text.slice(start, candidate))) break;
    if (!endsAtBoundary(view, candidate)) break;
    accepted = candidate;
  }
  return accepted;
}

function consider(
  view: JoinedView,
  pattern: SecretPattern,
  start: number,
  matched: string,
  findings: Finding[],
): void {
  const end = start + matched.length;
  const originalStart = view.source[start] ?? 0;
  // Contiguous in the original: the direct scan already judged it.
  if ((view.source[end - 1] ?? 0) + 1 - originalStart === end - start) return;
  const accepted = acceptedEnd(view, start, end, pattern);
  if (accepted < 0) return;
  findings.push({
    start: originalStart,
    end: (view.source[accepted - 1] ?? 0) + 1,
    kind: pattern.kind,
  });
}

/**
 * Findings, in original-text coordinates, for provider shapes that only appear once whitespace and
 * invisible characters are removed. Shapes already contiguous in the original are left to the direct scan.
 */
export function findSplitSecrets(text: string, patterns: readonly SecretPattern[]): Finding[] {
  const view = buildView(text);
  if (view === null) return [];
  const findings: Finding[] = [];
  for (const pattern of patterns) {
    if (!pattern.splittable) continue;
    const regexes = regexesFor(pattern);
    for (const match of view.text.matchAll(regexes.scan)) {
      consider(view, pattern, match.index, match[0], findings);
    }
    for (const start of view.prefixStarts) {
      regexes.at.lastIndex = start;
      const match = regexes.at.exec(view.text);
      if (match !== null) consider(view, pattern, start, match[0], findings);
    }
  }
  return findings;
}
