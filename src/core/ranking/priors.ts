/**
 * The bounded priors of recall, each a value in [0, 1] per candidate that score fusion adds with a small
 * weight (core/ranking/score-fusion.ts, weights in recall-fusion.ts). Pure.
 *
 * - Session prior: memories of one session (a dialogue, a coding session) share a topic, so a session
 *   where many memories match the query lends its members a little of that evidence. Session scores are
 *   the summed lexical scores of the session's candidates, min-max normalised over the sessions.
 * - Entity prior: a memory that names the person, file, symbol or tool the query names. Measured per
 *   category, because questions built to mislead name the wrong person on purpose (docs/benchmarks.md).
 */
import { extractCodeTerms } from '../text/identifiers.js';
import { isStopword } from '../text/stopwords.js';

/** Session prior for every candidate whose session is known, from the lexical leg's scores. */
export function sessionPrior(
  lexical: readonly { id: string; score: number }[],
  sessionOf: ReadonlyMap<string, string | null>,
): Map<string, number> {
  const bySession = new Map<string, number>();
  for (const hit of lexical) {
    const session = sessionOf.get(hit.id);
    if (session === undefined || session === null || !(hit.score > 0)) continue;
    bySession.set(session, (bySession.get(session) ?? 0) + hit.score);
  }
  const out = new Map<string, number>();
  if (bySession.size === 0) return out;
  const values = [...bySession.values()];
  const low = Math.min(...values);
  const range = Math.max(...values) - low;
  for (const [id, session] of sessionOf) {
    if (session === null) continue;
    const score = bySession.get(session);
    if (score === undefined) continue;
    out.set(id, range > 0 ? (score - low) / range : 1);
  }
  return out;
}

const NAME = /\p{Lu}[\p{L}\p{M}'’-]*\p{L}/gu;
/** Names and terms looked for, at most: a long prompt names many things and each would weigh little. */
export const MAX_ENTITIES = 8;

/**
 * What a query names: its code terms (paths, identifiers, tools) and capitalised words that are not
 * function words ("Caroline", "Postgres", "Vitest"), each once, lowercased, at most `MAX_ENTITIES`.
 */
export function queryEntities(query: string): string[] {
  const out = new Set<string>();
  // Whole code tokens only (`sqlite-store.ts`, `getUserById`), not their parts: a part like `store`
  // is an ordinary word, already the lexical leg's business.
  for (const token of query.split(/\s+/u)) {
    const whole = extractCodeTerms(token)[0];
    if (whole !== undefined && whole.length >= 3) out.add(whole.toLowerCase());
  }
  for (const match of query.matchAll(NAME)) {
    const word = match[0].replace(/['’]s$/u, '');
    if (word.length >= 2 && !isStopword(word.toLowerCase())) out.add(word.toLowerCase());
  }
  return [...out].slice(0, MAX_ENTITIES);
}

/**
 * Characters at the start of a memory (after a leading `[…]` label) that hold its subject: the speaker of
 * a dialogue turn, the file of "Edited src/x.ts: …", the command of "npm test failed: …". When a `: `
 * falls inside them, the subject ends there: in "Melanie: Thanks, Caroline! …" Melanie speaks and
 * Caroline is only addressed. On LoCoMo 0–4 (`npm run bench:sweep`) ending the subject at the colon moved
 * the hook path's MRR@10 from 0.569 to 0.578 and the fused pipeline's from 0.580 to 0.585
 * (docs/benchmarks.md).
 */
export const SUBJECT_CHARS = 48;
/** What naming an entity outside the subject counts, against 1 inside it. */
export const MENTION_SHARE = 0.5;

/**
 * Per memory: the share of the query's entities it names as whole words (case-insensitive), a name in
 * its subject counting fully and one further on `MENTION_SHARE`. In [0, 1].
 */
export function entityPrior(
  entities: readonly string[],
  memories: ReadonlyMap<string, { content: string }>,
): Map<string, number> {
  const out = new Map<string, number>();
  if (entities.length === 0) return out;
  const patterns = entities.map(
    (e) => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(e)}(?![\\p{L}\\p{N}_])`, 'iu'),
  );
  for (const [id, memory] of memories) {
    const subject = subjectOf(memory.content);
    let named = 0;
    for (const pattern of patterns) {
      if (pattern.test(subject)) named += 1;
      else if (pattern.test(memory.content)) named += MENTION_SHARE;
    }
    if (named > 0) out.set(id, named / entities.length);
  }
  return out;
}

/** The subject of a memory's text (see `SUBJECT_CHARS`). */
export function subjectOf(content: string): string {
  const head = content.replace(/^\s*\[[^\]]{0,80}\]\s*/u, '').slice(0, SUBJECT_CHARS);
  const colon = head.indexOf(': ');
  return colon > 0 ? head.slice(0, colon) : head;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
