/**
 * The topic terms of a prompt: words with stop words and prompt filler removed, lightly stemmed,
 * camelCase/snake_case split, plus whole code tokens. Prompt recall asks whether a prompt has any topic
 * at all before it searches ("yes, go ahead" has none); what is injected is decided by recall's
 * calibrated relevance (core/ranking/relevance.ts), not by word overlap. Pure and total.
 */
import { extractCodeTerms, splitIdentifier } from '../text/identifiers.js';
import { isStopword } from '../text/stopwords.js';

/** Characters of a text that are read; a prompt's or memory's head says what it is about. */
export const MAX_RELEVANCE_CHARS = 8_192;

/** Words that say nothing about a prompt's topic: politeness, assent, the verbs of asking. */
const FILLER = new Set(
  (
    'please thanks thank hi hey hello ok okay yes yeah yep sure right fine good great nice cool ' +
    'perfect awesome go ahead continue proceed let lets can could would want need like also just ' +
    'really still again now then actually maybe think know tell show explain help look try see ' +
    'something anything everything thing things stuff way bit lot one ones get got make made do ' +
    'done doing new old first last next same other another well much many every today yesterday'
  ).split(' '),
);

/** Words every coding memory and prompt use; they count, but half as much as a real topic word. */
const GENERIC = new Set(
  (
    'add fix bug error fail test code file function method class run change update work use ' +
    'issue problem check project repo app call value name type line page data write read set start'
  ).split(' '),
);

const GENERIC_WEIGHT = 0.5;
const MIN_WORD_LENGTH = 3;

/**
 * A light suffix stripper, applied alike to prompt and memory so `migrations`/`migration`,
 * `installing`/`install` and `deployed`/`deploy` meet. Not Porter: over-stemming joins unrelated words,
 * and both sides only need to agree.
 */
export function stem(word: string): string {
  let stemmed = word;
  if (word.length > 5 && word.endsWith('ies')) stemmed = `${word.slice(0, -3)}y`;
  else if (word.length > 5 && word.endsWith('ing')) stemmed = word.slice(0, -3);
  else if (word.length > 4 && word.endsWith('ed')) stemmed = word.slice(0, -2);
  else if (word.length > 4 && /(?:ss|sh|ch|x)es$/u.test(word)) stemmed = word.slice(0, -2);
  else if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/u.test(word)) {
    stemmed = word.slice(0, -1);
  }
  // `logging`/`log`, `installing`/`install`, `stored`/`store` must land on one stem: both sides agree.
  if (/([b-df-hj-np-tv-z])\1$/u.test(stemmed)) stemmed = stemmed.slice(0, -1);
  if (stemmed.length > 4 && stemmed.endsWith('e')) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

/** The weighted topic terms of a text. Total: never throws, bounded by `MAX_RELEVANCE_CHARS`. */
export function topicTerms(text: string): Map<string, number> {
  const head = text.slice(0, MAX_RELEVANCE_CHARS).normalize('NFKC');
  const terms = new Map<string, number>();
  const words = new Set<string>();
  for (const raw of splitIdentifier(head)) {
    const word = raw.replace(/['’]/gu, '');
    words.add(word);
    // Numbers count from two digits (`500`, `22`, `6379`); a lone digit is a list index or a version dot.
    const isNumber = /^\p{N}+$/u.test(word);
    if (word.length < (isNumber ? 2 : MIN_WORD_LENGTH)) continue;
    if (isStopword(word) || FILLER.has(word)) continue;
    const stemmed = stem(word);
    const weight = GENERIC.has(word) || GENERIC.has(stemmed) ? GENERIC_WEIGHT : 1;
    terms.set(stemmed, Math.max(terms.get(stemmed) ?? 0, weight));
  }
  // Whole code tokens (`orders.status`, `/orders`, `node_env`, `getuserbyid`): the parts are words above.
  for (const term of extractCodeTerms(head)) {
    if (term.length >= MIN_WORD_LENGTH && !words.has(term)) terms.set(`code:${term}`, 1);
  }
  return terms;
}
