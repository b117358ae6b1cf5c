/**
 * English function words that carry no topic. The lexical leg ORs query terms, so a question's "what",
 * "did", "the" otherwise match nearly every memory and let bm25 rank by them; dropping them moved the
 * LoCoMo floor from R@10 0.614 to 0.697 in the benchmark's own BM25 (docs/benchmarks.md). A query made
 * only of stop words keeps them, so it still finds something.
 */
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves'
  ).split(' '),
);

/** True for a lowercase English function word. */
export function isStopword(term: string): boolean {
  return STOPWORDS.has(term);
}

/** The terms that carry topic, or all of them when every term is a stop word. */
export function withoutStopwords(terms: readonly string[]): string[] {
  const kept = terms.filter((term) => !STOPWORDS.has(term));
  return kept.length > 0 ? kept : [...terms];
}
