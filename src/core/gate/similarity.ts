/**
 * Lexical near-duplicate similarity for the write gate. Pure and deterministic: the same two texts always
 * score the same, so the gate's merge decisions do not drift with traffic. The measure is Jaccard over the
 * union of word unigrams and word bigrams of an NFKC, case-folded copy: unigrams catch re-captures that
 * differ in spacing, punctuation or case; bigrams keep word order, so "pnpm, not npm" and "npm, not pnpm"
 * (same words, opposite facts) score low.
 */

/** A memory worth keeping differs from an existing one in a negation or a number: never merge those. */
const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nor',
  'without',
  'dont',
  'doesnt',
  'isnt',
  'cant',
  'cannot',
  'wont',
  'shouldnt',
  'mustnt',
  'avoid',
  'stop',
  'deprecated',
  'instead',
]);

/** Words beyond this many are ignored: the head of a memory is enough to recognise a re-capture. */
const MAX_WORDS = 2_000;

/**
 * Lower-cased words of a text: runs of letters and digits, apostrophes dropped. Punctuation inside a term
 * splits it (`read-only` = `read only`), so a re-capture that only re-punctuates still matches.
 */
export function wordsOf(text: string): string[] {
  const folded = text.normalize('NFKC').toLowerCase().replace(/['’]/g, '');
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.slice(0, MAX_WORDS);
}

function features(words: readonly string[]): Set<string> {
  const out = new Set<string>(words);
  for (let i = 1; i < words.length; i++) out.add(`${words[i - 1]} ${words[i]}`);
  return out;
}

/** The result of comparing two texts. */
export interface Similarity {
  /** Jaccard of unigram+bigram sets, in [0, 1]; 1 for identical word sequences. */
  readonly score: number;
  /**
   * True when the words that differ include a negation or a token with a digit ("node 18" vs "node 20"),
   * or when the same words appear in a different order ("pnpm, not npm" vs "npm, not pnpm"): such texts
   * state different facts however similar they look, so the gate must not merge them.
   */
  readonly guarded: boolean;
}

/** Compares two texts; see the module header for the measure. Two texts without words score 0. */
export function lexicalSimilarity(a: string, b: string): Similarity {
  const wordsA = wordsOf(a);
  const wordsB = wordsOf(b);
  const fa = features(wordsA);
  const fb = features(wordsB);
  let shared = 0;
  for (const feature of fa) if (fb.has(feature)) shared++;
  const union = fa.size + fb.size - shared;
  const score = union === 0 ? 0 : shared / union;
  const setA = new Set(wordsA);
  const setB = new Set(wordsB);
  const differing = [...wordsA.filter((w) => !setB.has(w)), ...wordsB.filter((w) => !setA.has(w))];
  // Same words, same counts, another order: a swap such as "pnpm, not npm" / "npm, not pnpm".
  const reordered =
    wordsA.join(' ') !== wordsB.join(' ') &&
    [...wordsA].sort().join(' ') === [...wordsB].sort().join(' ');
  const guarded = reordered || differing.some((w) => NEGATIONS.has(w) || /\p{N}/u.test(w));
  return { score, guarded };
}
