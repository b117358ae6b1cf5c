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
 * Neighbours on each side, by write order within one session and project. Chosen on LoCoMo conversations
 * 0–4 (docs/benchmarks.md): the evidence for a question often sits in the turn before (the question the
 * turn answers) or after (the answer to it).
 */
export const CONTEXT_BEFORE = 2;
export const CONTEXT_AFTER = 1;

/** Characters of each neighbour kept: the gist, and a bound on the index size of a long session. */
export const CONTEXT_NEIGHBOUR_CHARS = 600;

/** Version of this rule; stored with the lexical index, so a change rebuilds every context. */
export const CONTEXT_RULE_VERSION = 'ctx-b2a1-600';

/** Origins' trust bands that may give or get context (fail closed: anything else does neither). */
export function sharesContext(trustBand: string, quarantine: string): boolean {
  return (
    (trustBand === 'high' || trustBand === 'medium' || trustBand === 'low') &&
    quarantine !== 'rejected'
  );
}

/** The context text from neighbours' contents, oldest first (before, then after). */
export function joinContext(before: readonly string[], after: readonly string[]): string {
  return [...before, ...after]
    .map((text) => text.slice(0, CONTEXT_NEIGHBOUR_CHARS).trim())
    .filter((text) => text.length > 0)
    .join('\n');
}
