/**
 * Code-term extraction for the identifier leg of recall. Full-text tokenizers see `SqliteStore`,
 * `sqlite_store` and `src/store/sqlite-store.ts` as single opaque words (or shred them without keeping
 * the whole), so a search for "sqlite store" misses them and a search for the path matches every note
 * that says "store". These helpers turn code-like tokens into the whole token plus its parts, lowercased,
 * for both the indexed text and the query. Pure, total (never throws) and bounded on any input.
 */
import { MAX_CONTENT_LENGTH } from '../memory.js';

/** Characters of a text that are scanned; the rest is ignored. Equal to the memory size limit, so a
 * valid memory is always scanned whole and a pasted log cannot cost more than a memory can. */
export const MAX_SCAN_CHARS = MAX_CONTENT_LENGTH;

/** Characters of a query that are scanned. Queries may be whole prompts; their head is what matters. */
export const MAX_QUERY_SCAN_CHARS = 8_192;

/** Longer tokens are skipped: they are hashes, base64 or minified code, never something a person recalls. */
export const MAX_TOKEN_LENGTH = 200;

/** Terms kept per text. A memory of ordinary size yields far fewer; the cap bounds index rows per memory. */
export const MAX_CODE_TERMS = 512;

/** Terms kept per query, code terms first. More would make the identifier leg match nearly everything. */
export const MAX_QUERY_TERMS = 32;

/** Parts shorter than this (`a`, `2`, the `s` of `users_s`) match too much to help. Whole tokens are
 * kept whatever their length. */
export const MIN_PART_LENGTH = 2;

const TOKEN = /[\p{L}\p{M}\p{N}_$@#./\\:-]+/gu;
// `./x` and `../x` are relative paths whose meaningful part is `x`; a trailing `.` ends a sentence.
const EDGE_PUNCTUATION = /^(?:\.{1,2}[/\\])+|^[.:\-#]+|[.:\-/\\#@$]+$/gu;
const PATH_SEPARATORS = /[/\\:@#$]+/u;
const WORD_SEPARATORS = /[_-]+/u;
// HTTPServer2Config → HTTP, Server, 2, Config; letters without case (CJK) form their own runs.
const CASE_WORD =
  /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|[\p{Lu}\p{M}]+|\p{N}+|(?:(?![\p{Lu}\p{Ll}])[\p{L}\p{M}])+/gu;
const CODE_MARK = /[_/\\.:@#$]|[\p{L}\p{N}]-[\p{L}\p{N}]|\p{Ll}\p{Lu}|\p{L}\p{N}|\p{N}\p{L}/u;
const PLAIN_WORD = /^[\p{L}\p{M}]+$/u;

const STOPWORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now ' +
    'old see two way who did get got let put say she too use that with have this will your from they ' +
    'been were what when where which while there their then than them into over also just like some ' +
    'only very does done should would could about after before other these those being because how why'
  ).split(' '),
);

/**
 * The code terms of a text: every code-like token (camelCase, PascalCase, snake_case, kebab-case, dotted
 * names, paths, letter–digit mixes) as a whole, then its parts, all lowercased, each once, in order of
 * first appearance. Plain prose words are left to the full-text leg. Scans at most `MAX_SCAN_CHARS` and
 * returns at most `MAX_CODE_TERMS` terms.
 *
 * `src/store/sqlite-store.ts` → `src/store/sqlite-store.ts`, `src`, `store`, `sqlite-store.ts`,
 * `sqlite-store`, `ts`, `sqlite`.
 */
export function extractCodeTerms(text: string): string[] {
  const terms = new TermSet(MAX_CODE_TERMS);
  for (const token of tokens(text, MAX_SCAN_CHARS)) {
    if (!isCodeLike(token)) continue;
    terms.add(token.toLowerCase());
    for (const part of codeParts(token)) terms.add(part);
    if (terms.full) break;
  }
  return terms.values();
}

/**
 * The terms to look up for a query: its code terms (as `extractCodeTerms`), then its other words of three
 * or more letters that are not stopwords, so that "sqlite store" finds `SqliteStore`. Scans at most
 * `MAX_QUERY_SCAN_CHARS` and returns at most `MAX_QUERY_TERMS` terms.
 */
export function queryTerms(query: string): string[] {
  const terms = new TermSet(MAX_QUERY_TERMS);
  const plain: string[] = [];
  for (const token of tokens(query, MAX_QUERY_SCAN_CHARS)) {
    if (isCodeLike(token)) {
      terms.add(token.toLowerCase());
      for (const part of codeParts(token)) terms.add(part);
    } else if (PLAIN_WORD.test(token) && token.length >= 3) {
      const word = token.toLowerCase();
      if (!STOPWORDS.has(word)) plain.push(word);
    }
    if (terms.full) return terms.values();
  }
  for (const word of plain) terms.add(word);
  return terms.values();
}

/**
 * The words of one identifier or path, lowercased, in order, repeats kept: `getUserById` → `get`,
 * `user`, `by`, `id`; `NODE_ENV` → `node`, `env`. The hash embedder uses these as extra features so
 * that `SqliteStore` and "sqlite store" land near each other.
 */
export function splitIdentifier(token: string): string[] {
  const words: string[] = [];
  for (const piece of token.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    for (const match of piece.matchAll(CASE_WORD)) words.push(match[0].toLowerCase());
  }
  return words;
}

function* tokens(text: string, maxChars: number): Generator<string> {
  // NFKC folds full-width and compatibility forms (`ｓｒｃ` → `src`); it can lengthen text, so cap again.
  const scanned = text.slice(0, maxChars).normalize('NFKC').slice(0, maxChars);
  for (const match of scanned.matchAll(TOKEN)) {
    const token = match[0].replace(EDGE_PUNCTUATION, '');
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) continue;
    yield token;
  }
}

function isCodeLike(token: string): boolean {
  return CODE_MARK.test(token);
}

/** Path segments; dotted pieces with stem and extension; snake/kebab pieces; camelCase and digit words. */
function codeParts(token: string): string[] {
  const parts: string[] = [];
  const segments = token.split(PATH_SEPARATORS).filter((s) => s.length > 0);
  for (const segment of segments) {
    if (segments.length > 1) parts.push(segment);
    const lastDot = segment.lastIndexOf('.');
    if (lastDot > 0 && lastDot < segment.length - 1) {
      parts.push(segment.slice(0, lastDot), segment.slice(lastDot + 1));
    }
    const dotted = segment.split('.').filter((p) => p.length > 0);
    for (const piece of dotted) {
      if (dotted.length > 1) parts.push(piece);
      const words = piece.split(WORD_SEPARATORS).filter((w) => w.length > 0);
      if (words.length > 1) parts.push(...words);
      for (const word of words) parts.push(...splitIdentifier(word));
    }
  }
  return parts.map((p) => p.toLowerCase()).filter((p) => p.length >= MIN_PART_LENGTH);
}

class TermSet {
  readonly #seen = new Set<string>();
  constructor(readonly limit: number) {}

  get full(): boolean {
    return this.#seen.size >= this.limit;
  }

  add(term: string): void {
    if (!this.full && term.length > 0) this.#seen.add(term);
  }

  values(): string[] {
    return [...this.#seen];
  }
}
