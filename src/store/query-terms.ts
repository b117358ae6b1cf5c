/**
 * How any user string becomes search terms, shared by every backend so both search the same words:
 * the words of a lexical query (stop words dropped unless nothing else is left), the substrings of the
 * identifier leg, and ISO-8601 bounds normalised to the stored `toISOString()` shape.
 */
import { MemoryError } from '../core/errors.js';
import { withoutStopwords } from '../core/text/stopwords.js';

/** Upper bound on OR-ed terms: keeps a 100 KB paste as fast as a short query. */
export const MAX_QUERY_TERMS = 64;
/** Terms shorter than a trigram cannot be looked up in a trigram index. */
export const MIN_TERM_LENGTH = 3;
/** Longest term looked up: longer ones are pastes, not identifiers. */
export const MAX_TERM_LENGTH = 200;

// Letters, digits, combining marks and private-use characters are what SQLite's unicode61 treats as
// token characters; everything else (punctuation, symbols, emoji, NUL, query operators) separates.
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The distinct lower-case words of `input`, at most `maxTerms`, stop words dropped unless only they remain. */
export function lexicalTerms(input: string, maxTerms = MAX_QUERY_TERMS): string[] {
  const terms = new Set<string>();
  for (const match of input.matchAll(TERM)) {
    terms.add(match[0].toLowerCase());
    if (terms.size >= maxTerms) break;
  }
  return terms.size === 0 ? [] : withoutStopwords([...terms]);
}

/** Every word of `text` in order, lower-case (what a backend without unicode61 indexes). */
export function textWords(text: string): string[] {
  return Array.from(text.matchAll(TERM), (match) => match[0].toLowerCase());
}

/** The distinct lower-case substrings the identifier leg looks up; terms outside the length bounds are dropped. */
export function substringTerms(terms: readonly string[], maxTerms = MAX_QUERY_TERMS): string[] {
  const kept = new Set<string>();
  for (const raw of terms) {
    if (typeof raw !== 'string') continue;
    // NUL cannot be bound inside a query string; other characters are literal.
    const term = raw.replaceAll('\u0000', '').trim().toLowerCase();
    if ([...term].length < MIN_TERM_LENGTH || term.length > MAX_TERM_LENGTH) continue;
    kept.add(term);
    if (kept.size >= maxTerms) break;
  }
  return [...kept];
}

// Stored timestamps are `toISOString()` strings, so bounds are normalised to that exact shape before a
// comparison ('2024-05-01' would otherwise sort before every instant of that day).
export function isoBound(value: string, name: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new MemoryError('INVALID_INPUT', `${name} "${value}" is not an ISO-8601 date or time.`);
  }
  return new Date(time).toISOString();
}
