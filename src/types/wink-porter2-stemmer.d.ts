/** wink-porter2-stemmer ships no types: one function, lowercase English word in, Porter2 stem out. */
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}
