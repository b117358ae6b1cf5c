/**
 * The lexical analysis every backend indexes and every query goes through: one function turns text into
 * the terms of the lexical index, so the terms a backend matches and the terms core scores
 * (core/ranking/bm25f.ts) are the same strings, whatever the backend's own tokenizer would have done.
 * Unicode letters and digits form words (NFKC, lowercased, accents folded); plain a–z words are reduced
 * with the Porter2 (Snowball English) stemmer, which on LoCoMo beat a light suffix stripper by +0.012
 * R@10 (docs/benchmarks.md). Everything else (digits, CJK, mixed words) is kept as it is. Pure and bounded.
 */
import stem from 'wink-porter2-stemmer';

import { MAX_CONTENT_LENGTH } from '../memory.js';
import { isStopword } from './stopwords.js';

/**
 * Version of the analysis. Stored with the lexical index (sqlite: `lexical_state`); any change to what
 * `analyzeText` returns must bump it, so existing stores rebuild their index instead of mixing terms.
 */
export const ANALYZER_VERSION = 'porter2-v1';

/** Terms longer than this are hashes, base64 or minified code: kept, but cut to this many characters. */
export const MAX_TERM_CHARS = 64;

/** Characters of a text that are analysed: a valid memory is always analysed whole. */
export const MAX_ANALYZED_CHARS = MAX_CONTENT_LENGTH;

/** Upper bound on distinct query terms: keeps a 100 KB paste as fast as a short query. */
export const MAX_QUERY_TERMS = 64;

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MARKS = /\p{M}+/gu;
const PLAIN = /^[a-z]+$/;

// Stemming is the costly step and prose repeats itself: a bounded cache makes it nearly free.
const STEM_CACHE_LIMIT = 50_000;
const stems = new Map<string, string>();

function stemOf(word: string): string {
  if (!PLAIN.test(word) || word.length < 3) return word;
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stem(word);
  if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
  stems.set(word, stemmed);
  return stemmed;
}

const ASCII = /^\p{ASCII}*$/u;
const ASCII_WORD = /[a-z0-9]+/gu;

/** The words of a text, lowercased and accent-folded, before stemming (stop words included). */
export function words(text: string): string[] {
  const sliced = text.slice(0, MAX_ANALYZED_CHARS);
  const out: string[] = [];
  if (ASCII.test(sliced)) {
    // Most memories are plain ASCII, where normalising and folding change nothing: recall analyses
    // every lexical candidate's text and context, so this path halves the cost of re-scoring.
    for (const match of sliced.toLowerCase().matchAll(ASCII_WORD)) {
      out.push(match[0].slice(0, MAX_TERM_CHARS));
    }
    return out;
  }
  const folded = sliced.normalize('NFKC').toLowerCase();
  for (const match of folded.matchAll(WORD)) {
    const word = match[0].normalize('NFD').replace(MARKS, '').normalize('NFC');
    if (word.length > 0) out.push(word.slice(0, MAX_TERM_CHARS));
  }
  return out;
}

/** The index terms of a text, in order, repeats kept (term frequency counts them). Stop words stay. */
export function analyzeText(text: string): string[] {
  return words(text).map(stemOf);
}

/** The index term of one lowercased word. */
export function termOf(word: string): string {
  return stemOf(word);
}

/**
 * The distinct terms of a query: stop words dropped unless nothing else is left, at most
 * `MAX_QUERY_TERMS`, in order of first appearance.
 */
export function analyzeQuery(query: string): string[] {
  const all: string[] = [];
  const seen = new Set<string>();
  const topical: string[] = [];
  for (const word of words(query)) {
    const term = stemOf(word);
    if (seen.has(term)) continue;
    seen.add(term);
    all.push(term);
    if (!isStopword(word)) topical.push(term);
    if (all.length >= MAX_QUERY_TERMS * 4) break;
  }
  return (topical.length > 0 ? topical : all).slice(0, MAX_QUERY_TERMS);
}
