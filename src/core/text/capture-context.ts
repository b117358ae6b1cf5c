/**
 * What the context of a memory is: the text around it when it was captured. For a dialogue that is the
 * neighbouring turns; for coding events it is the neighbouring captures of the same session: the failing
 * command before a fix, the edit after an error, the decision an edit carried out. (The user's prompt is
 * not available: prompts are read for recall and never stored, docs/claude-code.md.) Context is indexed
 * as its own lexical field at a lower weight (core/ranking/bm25f.ts), so it helps find a memory without
 * making its neighbours indistinguishable from it; it is never rendered into a session.
 *
 * Trust: only memories whose origin is not untrusted, and that a person has not rejected, give or get
 * context, so text that arrived through an untrusted channel never steers which trusted memory a query
 * finds, and an untrusted memory never borrows trusted words. Pure.
 */

/**
 * Neighbours on each side, by write order within one session and project. The evidence for a question
 * often sits in the turn before (the question the turn answers) or after (the answer to it); the second
 * one after counts little (`RECALL_BM25F.contextLines`, core/ranking/bm25f.ts) but still helps.
 */
export const CONTEXT_BEFORE = 2;
export const CONTEXT_AFTER = 2;

/** Characters of each neighbour kept: the gist, and a bound on the index size of a long session. */
export const CONTEXT_NEIGHBOUR_CHARS = 600;

/** Version of this rule; stored with the lexical index, so a change rebuilds every context. */
export const CONTEXT_RULE_VERSION = 'ctx-lines-b2a2-600';

/** Origins' trust bands that may give or get context (fail closed: anything else does neither). */
export function sharesContext(trustBand: string, quarantine: string): boolean {
  return (
    (trustBand === 'high' || trustBand === 'medium' || trustBand === 'low') &&
    quarantine !== 'rejected'
  );
}

/**
 * The context text from neighbours' contents: one line per neighbour position, `CONTEXT_BEFORE` lines
 * for the ones before (oldest first) and then the ones after (nearest first), a missing neighbour an
 * empty line, trailing empty lines dropped; '' when there is no neighbour. A neighbour's own line breaks
 * become spaces, so line k always holds the neighbour at position k (`contextLinesOf`): lexical scoring
 * weighs each position apart, and the sentence vectors take one vector per neighbour.
 */
export function joinContext(before: readonly string[], after: readonly string[]): string {
  const near = before.slice(-CONTEXT_BEFORE);
  const lines = [
    ...Array<string>(CONTEXT_BEFORE - near.length).fill(''),
    ...near,
    ...after.slice(0, CONTEXT_AFTER),
  ].map(neighbourLine);
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

/** One neighbour as a context line: its first `CONTEXT_NEIGHBOUR_CHARS` characters on one line. */
function neighbourLine(text: string): string {
  return text.slice(0, CONTEXT_NEIGHBOUR_CHARS).replace(/\s+/gu, ' ').trim();
}

/**
 * The neighbour at each position of a context made by `joinContext`: `CONTEXT_BEFORE + CONTEXT_AFTER`
 * entries (the ones before, oldest first, then the ones after, nearest first), '' where there is none.
 */
export function contextLinesOf(context: string): string[] {
  const slots = CONTEXT_BEFORE + CONTEXT_AFTER;
  const lines = context === '' ? [] : context.split('\n').slice(0, slots);
  return [...lines, ...Array<string>(slots - lines.length).fill('')];
}
