/**
 * What prompt-time recall injects next to a user's prompt: of the retrieval candidates (best first),
 * those that pass the injection gate and clear the calibrated relevance threshold, at most a few. Most
 * prompts get nothing, and that is the point: a proactive injection the prompt did not need costs tokens
 * and attention every turn. Pure: candidates, ledger and prompt arrive as parameters.
 */
import type { Memory, MemoryId } from '../memory.js';
import { type InjectionTarget, withheldReasons } from './injectable.js';
import {
  PROMPT_RELEVANCE_THRESHOLD,
  type Relevance,
  relevanceOf,
  topicTerms,
} from './prompt-relevance.js';

/** At most this many memories per prompt: the best few relevant ones, not everything that matched. */
export const MAX_PROMPT_ITEMS = 3;

export interface PromptRecallInput {
  readonly prompt: string;
  /** Retrieval candidates, best first (retrieve() order: fusion, recency, heat and trust applied). */
  readonly candidates: readonly Memory[];
  readonly target: InjectionTarget;
  /** Defaults to {@link PROMPT_RELEVANCE_THRESHOLD}. */
  readonly threshold?: number;
  /** Defaults to {@link MAX_PROMPT_ITEMS}. */
  readonly maxItems?: number;
}

export interface PromptRecallChoice {
  readonly memory: Memory;
  readonly relevance: Relevance;
}

export interface PromptRecall {
  /** What to inject, in candidate order; empty when nothing cleared the threshold. */
  readonly chosen: readonly PromptRecallChoice[];
  /** The highest relevance among candidates that passed the gate (0 when none did). */
  readonly best: number;
  /** Candidates the gate refused, by id (for logs; their relevance is never computed). */
  readonly withheld: readonly MemoryId[];
}

/** True when the prompt has any topic term at all; otherwise recall is not even attempted. */
export function hasTopic(prompt: string): boolean {
  return topicTerms(prompt).size > 0;
}

/**
 * Chooses the memories to inject for `prompt`. The gate runs first, so an ineligible memory is never
 * scored; each eligible one must reach the threshold on its own (no "best of a bad lot").
 */
export function selectPromptRecall(input: PromptRecallInput): PromptRecall {
  const threshold = input.threshold ?? PROMPT_RELEVANCE_THRESHOLD;
  const maxItems = input.maxItems ?? MAX_PROMPT_ITEMS;
  const promptTerms = topicTerms(input.prompt);
  const chosen: PromptRecallChoice[] = [];
  const withheld: MemoryId[] = [];
  const seen = new Set<MemoryId>();
  let best = 0;
  for (const memory of input.candidates) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    if (withheldReasons(memory, input.target).length > 0) {
      withheld.push(memory.id);
      continue;
    }
    const relevance = relevanceOf(promptTerms, topicTerms(memory.content));
    best = Math.max(best, relevance.score);
    if (relevance.score >= threshold && chosen.length < maxItems) {
      chosen.push({ memory, relevance });
    }
  }
  return { chosen, best, withheld };
}
