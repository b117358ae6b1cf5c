/**
 * What prompt-time recall injects next to a user's prompt, decided by recall's own evidence: each
 * candidate's calibrated relevance (core/ranking/relevance.ts) puts it in a tier. Confident memories go
 * in full; borderline ones as an index entry (id, kind, age and the first words) the agent can open with
 * `get_memory`, since a silent gate costs more than a twenty-token pointer; the rest nothing. Most
 * prompts still get nothing. Pure: candidates, ledger and prompt arrive as parameters.
 */
import type { Memory, MemoryId } from '../memory.js';
import {
  evidencePath,
  RELEVANCE_TIERS,
  type RelevanceEvidence,
  relevanceTier,
} from '../ranking/relevance.js';
import { type InjectionTarget, withheldReasons } from './injectable.js';
import { topicTerms } from './prompt-relevance.js';

/** At most this many memories in full per prompt: the best few, not everything that matched. */
export const MAX_PROMPT_ITEMS = 3;

/** At most this many index entries per prompt. */
export const MAX_INDEX_ITEMS = 5;

/** The header flag of an index entry; the frame's title says how to read the rest. */
export const INDEX_FLAG = 'index';

/** The frame title when it holds index entries. */
export const INDEX_TITLE =
  'prompt recall; entries flagged index show their first words only, get_memory with the id gives the full text';

/** Words of a memory an index entry shows. */
export const INDEX_WORDS = 12;

export interface PromptCandidate {
  readonly memory: Memory;
  /** Calibrated relevance in (0, 1). */
  readonly relevance: number;
  readonly evidence: RelevanceEvidence;
}

export interface PromptRecallInput {
  /** Retrieval candidates, best first (retrieve() order: fusion, recency, heat and trust applied). */
  readonly candidates: readonly PromptCandidate[];
  readonly target: InjectionTarget;
  /** Defaults to {@link RELEVANCE_TIERS}. */
  readonly tiers?: typeof RELEVANCE_TIERS;
}

export interface PromptRecallChoice {
  readonly memory: Memory;
  readonly relevance: number;
  readonly tier: 'full' | 'index';
}

export interface PromptRecall {
  /** Full entries first, then index entries, each in candidate order; empty when nothing cleared a tier. */
  readonly chosen: readonly PromptRecallChoice[];
  /** The highest relevance among candidates that passed the gate (0 when none did). */
  readonly best: number;
  /** Candidates the gate refused, by id (for logs). */
  readonly withheld: readonly MemoryId[];
}

/** True when the prompt has any topic term at all; otherwise recall is not even attempted. */
export function hasTopic(prompt: string): boolean {
  return topicTerms(prompt).size > 0;
}

/**
 * Chooses what to inject. The gate runs first, so an ineligible memory is never placed; each eligible
 * one is placed by its own relevance (no "best of a bad lot"). A memory the session was already pointed
 * at by an index entry may come in full, never as a second pointer.
 */
export function selectPromptRecall(input: PromptRecallInput): PromptRecall {
  const tiers = input.tiers ?? RELEVANCE_TIERS;
  const full: PromptRecallChoice[] = [];
  const index: PromptRecallChoice[] = [];
  const withheld: MemoryId[] = [];
  const seen = new Set<MemoryId>();
  let best = 0;
  for (const { memory, relevance, evidence } of input.candidates) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    if (withheldReasons(memory, input.target).length > 0) {
      withheld.push(memory.id);
      continue;
    }
    best = Math.max(best, relevance);
    const tier = relevanceTier(relevance, evidencePath(evidence), tiers);
    if (tier === 'full' && full.length < MAX_PROMPT_ITEMS) full.push({ memory, relevance, tier });
    else if (
      tier !== 'none' &&
      index.length < MAX_INDEX_ITEMS &&
      input.target.alreadyIndexed?.has(memory.id) !== true
    ) {
      index.push({ memory, relevance, tier: 'index' });
    }
  }
  return { chosen: [...full, ...index], best, withheld };
}

/** The first words of a memory for its index entry, on one line. */
export function indexText(content: string, words = INDEX_WORDS): string {
  const all = content.replace(/\s+/gu, ' ').trim().split(' ');
  const head = all.slice(0, words).join(' ');
  return all.length > words ? `${head} …` : head;
}
