/**
 * The lexical floor: a plain Okapi BM25 (Robertson & Zaragoza, 2009) written here without dependencies
 * and sharing nothing with mnemo's FTS5 index, so the floor measures "a keyword index", not our own
 * lexical leg. Terms are lowercased letter/digit runs minus common English stop words, with a light
 * suffix stripper (plural -s/-es/-ies, -ing, -ed); IDF is Lucene's non-negative form. Pure.
 *
 * Measured on LoCoMo strict (one memory per turn, session date prefixed): without stop words or
 * stemming R@10 0.614, with stop words 0.656, with both 0.697, which reproduces the reference floor
 * (0.693) the benchmark README gives; the bare variants would flatter every system compared to them.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

const TERM = /[\p{L}\p{N}]+/gu;

// The classic English stop list (as in NLTK / the SMART subset most BM25 baselines ship).
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
  hers herself it its itself they them their theirs themselves what which who whom this that these
  those am is are was were be been being have has had having do does did doing a an the and but if or
  because as until while of at by for with about against between into through during before after
  above below to from up down in out on off over under again further then once here there when where
  why how all any both each few more most other some such no nor not only own same so than too very s
  t can will just don should now`.split(/\s+/),
);

/** Strips the commonest English inflections; deliberately cruder than Porter, and dependency-free. */
export function lightStem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies') && !/[ae]ies$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('es') && !/[aeo]es$/.test(w)) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith('s') && !/[us]s$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  return w;
}

/** Lowercased runs of letters and digits, stop words removed, lightly stemmed. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TERM) ?? []).filter((t) => !STOP_WORDS.has(t)).map(lightStem);
}

/** An in-memory BM25 index over a fixed list of documents, addressed by their position. */
export class Bm25Index {
  readonly #postings = new Map<string, { doc: number; tf: number }[]>();
  readonly #lengths: number[];
  readonly #avgLength: number;

  constructor(documents: readonly string[]) {
    this.#lengths = documents.map((document, doc) => {
      const counts = new Map<string, number>();
      const terms = tokenize(document);
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let list = this.#postings.get(term);
        if (list === undefined) this.#postings.set(term, (list = []));
        list.push({ doc, tf });
      }
      return terms.length;
    });
    const total = this.#lengths.reduce((sum, length) => sum + length, 0);
    this.#avgLength = documents.length === 0 ? 0 : total / documents.length;
  }

  /** Positions of the best `limit` documents, best first; ties go to the earlier document. */
  search(query: string, limit: number): { doc: number; score: number }[] {
    const n = this.#lengths.length;
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const postings = this.#postings.get(term);
      if (postings === undefined) continue;
      const idf = Math.log(1 + (n - postings.length + 0.5) / (postings.length + 0.5));
      for (const { doc, tf } of postings) {
        const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.#lengths[doc]!) / this.#avgLength);
        const score = (idf * tf * (BM25_K1 + 1)) / (tf + norm);
        scores.set(doc, (scores.get(doc) ?? 0) + score);
      }
    }
    return [...scores]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit);
  }
}
