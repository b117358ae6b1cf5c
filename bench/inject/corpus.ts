/**
 * Shapes benchmark datasets into what the injection benchmark loads and asks: projects (one git
 * repository each) with memories written on the user channel and the questions asked in them, a
 * stratified LoCoMo subset, and the negative prompts file. Pure: the current time arrives as a number.
 */
import { MEMORY_KINDS, type MemoryKind } from '../../src/core/memory.js';
import type { BenchConversation, BenchDataset, BenchQuestion } from '../retrieval/dataset.js';
import { memoryText } from '../retrieval/memory-text.js';

/** Spacing of the memories of one session (the datasets give only the session's start). */
export const MEMORY_SPACING_MS = 30_000;
/** The newest memory of a project is dated this long before the run: the user comes back the next day. */
export const LAST_MEMORY_AGE_MS = 86_400_000;

export interface ProjectMemory {
  turnId: string;
  text: string;
  kind: MemoryKind;
  /** Epoch ms the memory is dated at. */
  at: number;
  /** The dataset session it came from (`<conversation>/<session>`), for writers that pass one. */
  sessionId?: string;
}

export interface BenchProject {
  id: string;
  memories: ProjectMemory[];
  questions: BenchQuestion[];
}

/**
 * One project per conversation. `coding`: a turn is a memory as written (its speaker is its kind, a
 * speaker that names no kind is a note); `dialog`: a turn becomes `[date] speaker: text`, a note. The
 * dates keep their spacing and move so that each project's newest memory is a day before `now`.
 */
export function projectsOf(
  dataset: BenchDataset,
  style: 'coding' | 'dialog',
  now: number,
): BenchProject[] {
  return dataset.conversations.map((conversation) => projectOf(conversation, style, now));
}

function projectOf(
  conversation: BenchConversation,
  style: 'coding' | 'dialog',
  now: number,
): BenchProject {
  const memories = conversation.sessions.flatMap((session) =>
    session.turns.map(
      (turn, index): ProjectMemory => ({
        turnId: turn.id,
        text: style === 'coding' ? turn.text : memoryText(session, index),
        kind: style === 'coding' ? kindOf(turn.speaker) : 'note',
        at: Date.parse(session.startedAt) + index * MEMORY_SPACING_MS,
        sessionId: `${conversation.id}/${session.id}`,
      }),
    ),
  );
  const last = Math.max(...memories.map((m) => m.at));
  const shift = now - LAST_MEMORY_AGE_MS - last;
  return {
    id: conversation.id,
    memories: memories.map((m) => ({ ...m, at: m.at + shift })),
    questions: conversation.questions,
  };
}

function kindOf(speaker: string): MemoryKind {
  return (MEMORY_KINDS as readonly string[]).includes(speaker) ? (speaker as MemoryKind) : 'note';
}

/**
 * The first `perConversation` questions of each chosen conversation, taken round-robin over the
 * categories (in the dataset's category order), so a small subset still holds every category.
 */
export function stratifiedQuestions(
  questions: readonly BenchQuestion[],
  categoryOrder: readonly string[],
  perConversation: number,
): BenchQuestion[] {
  const queues = categoryOrder.map((id) => questions.filter((q) => q.category === id));
  const picked: BenchQuestion[] = [];
  for (let round = 0; picked.length < perConversation; round++) {
    const before = picked.length;
    for (const queue of queues) {
      const next = queue[round];
      if (next !== undefined && picked.length < perConversation) picked.push(next);
    }
    if (picked.length === before) break;
  }
  // Back in dataset order, so the report lists them as the source does.
  const order = new Map(questions.map((q, i) => [q.id, i]));
  return picked.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/**
 * Conversations `indices` of `dataset`, in that order, each with `perConversation` questions taken
 * round-robin over the categories `categoryIds` ({@link stratifiedQuestions}).
 */
export function stratifiedConversations(
  dataset: BenchDataset,
  indices: readonly number[],
  perConversation: number,
  categoryIds: readonly string[],
): BenchConversation[] {
  return indices.map((index) => {
    const conversation = dataset.conversations[index];
    if (conversation === undefined)
      throw new Error(`${dataset.name} has no conversation ${index}.`);
    return {
      ...conversation,
      questions: stratifiedQuestions(conversation.questions, categoryIds, perConversation),
    };
  });
}

/** Negative prompt kinds: none of them needs any memory of the project it is asked in. */
export const NEGATIVE_KINDS = ['chit-chat', 'generic', 'foreign'] as const;
export type NegativeKind = (typeof NEGATIVE_KINDS)[number];

export interface NegativePrompt {
  id: string;
  kind: NegativeKind;
  prompt: string;
  /** For `foreign`: the foreign project's memories that answer it (in its own project). */
  evidence: string[];
}

export interface NegativeSet {
  /** The other project whose memories the `foreign` prompts ask about. */
  foreign: { id: string; memories: { id: string; kind: MemoryKind; text: string }[] };
  prompts: NegativePrompt[];
}

export const NEGATIVES_FORMAT = 'mnemo-bench-negatives/1';

/** Checks the negative prompts file; throws naming the first problem. */
export function parseNegatives(value: unknown): NegativeSet {
  const root = value as Record<string, unknown>;
  if (root?.['format'] !== NEGATIVES_FORMAT) {
    throw new Error(`$.format must be "${NEGATIVES_FORMAT}".`);
  }
  const foreign = root['foreign'] as Record<string, unknown> | undefined;
  if (typeof foreign?.['id'] !== 'string' || !Array.isArray(foreign['memories'])) {
    throw new Error('$.foreign must be { id, memories[] }.');
  }
  const memoryIds = new Set<string>();
  const memories = (foreign['memories'] as unknown[]).map((raw, i) => {
    const m = raw as Record<string, unknown>;
    const at = `$.foreign.memories[${i}]`;
    if (typeof m['id'] !== 'string' || typeof m['text'] !== 'string' || m['text'].trim() === '') {
      throw new Error(`${at} needs an id and a non-empty text.`);
    }
    if (!(MEMORY_KINDS as readonly unknown[]).includes(m['kind'])) {
      throw new Error(`${at}.kind must be one of ${MEMORY_KINDS.join(', ')}.`);
    }
    if (memoryIds.has(m['id'])) throw new Error(`${at}.id "${m['id']}" is not unique.`);
    memoryIds.add(m['id']);
    return { id: m['id'], kind: m['kind'] as MemoryKind, text: m['text'] };
  });
  if (!Array.isArray(root['prompts'])) throw new Error('$.prompts must be an array.');
  const promptIds = new Set<string>();
  const prompts = (root['prompts'] as unknown[]).map((raw, i) => {
    const p = raw as Record<string, unknown>;
    const at = `$.prompts[${i}]`;
    if (
      typeof p['id'] !== 'string' ||
      typeof p['prompt'] !== 'string' ||
      p['prompt'].trim() === ''
    ) {
      throw new Error(`${at} needs an id and a non-empty prompt.`);
    }
    if (!(NEGATIVE_KINDS as readonly unknown[]).includes(p['kind'])) {
      throw new Error(`${at}.kind must be one of ${NEGATIVE_KINDS.join(', ')}.`);
    }
    if (promptIds.has(p['id'])) throw new Error(`${at}.id "${p['id']}" is not unique.`);
    promptIds.add(p['id']);
    const evidence = Array.isArray(p['evidence']) ? (p['evidence'] as unknown[]) : [];
    if (p['kind'] === 'foreign' && evidence.length === 0) {
      throw new Error(`${at} is foreign and needs the foreign memories that answer it (evidence).`);
    }
    for (const e of evidence) {
      if (typeof e !== 'string' || !memoryIds.has(e)) {
        throw new Error(`${at}.evidence names unknown foreign memory ${JSON.stringify(e)}.`);
      }
    }
    return {
      id: p['id'],
      kind: p['kind'] as NegativeKind,
      prompt: p['prompt'],
      evidence: evidence as string[],
    };
  });
  return { foreign: { id: foreign['id'], memories }, prompts };
}

/** Spreads prompts over projects round-robin (prompt i is asked in project i mod n). */
export function roundRobin<T>(items: readonly T[], projects: readonly string[]): [T, string][] {
  if (projects.length === 0) throw new Error('No project to ask in.');
  return items.map((item, i) => [item, projects[i % projects.length]!]);
}
