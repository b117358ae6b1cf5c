/**
 * One fresh SQLite store per benchmark conversation, written through the real store port
 * (`openSqliteStore` + `remember`, then `embedPending`) with a fixed clock: each turn is stored at its
 * session's start plus 30 s per turn, so recency is meaningful and every run is identical. Memories
 * record their turn ids, because the store dedupes identical text and one memory may then stand for
 * several turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { MemoryId } from '../../src/core/memory.js';
import type { WordTable } from '../../src/embed/word-table.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { embedPending } from '../../src/retrieval/embed-pending.js';
import { openWordEmbedder } from '../../src/retrieval/word-vectors.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { MemoryStore, Scope } from '../../src/store/store.js';
import type { BenchConversation } from './dataset.js';
import { memoryText, type MemoryTextOptions } from './memory-text.js';

/** Spacing of turns inside a session: LoCoMo gives only the session's start. */
export const TURN_SPACING_MS = 30_000;

/** A settable clock: the harness moves it before each write and before recall. */
export class FixedClock implements Clock {
  #now: number;
  constructor(now: number) {
    this.#now = now;
  }
  set(now: number): void {
    this.#now = now;
  }
  now(): Date {
    return new Date(this.#now);
  }
}

/** One turn as the benchmark stores it. */
export interface CorpusTurn {
  id: string;
  sessionId: string;
  text: string;
  at: number;
}

/** The turns of a conversation in order, with the memory text each becomes. */
export function corpusTurns(
  conversation: BenchConversation,
  text: MemoryTextOptions,
  options: { sameTime?: boolean } = {},
): CorpusTurn[] {
  // `sameTime` (ablation): every turn stored at the first session's start, so recency cannot reorder.
  const first = Date.parse(conversation.sessions[0]?.startedAt ?? '1970-01-01T00:00:00Z');
  return conversation.sessions.flatMap((session) =>
    session.turns.map((turn, index) => ({
      id: turn.id,
      sessionId: session.id,
      text: memoryText(session, index, text),
      at:
        options.sameTime === true ? first : Date.parse(session.startedAt) + index * TURN_SPACING_MS,
    })),
  );
}

export interface ConversationStore {
  store: MemoryStore;
  clock: FixedClock;
  scope: Scope;
  /** Turn ids each memory stands for. */
  turnsOf: Map<MemoryId, string[]>;
  /** Memory id of each turn (same order as the corpus). */
  memoryOf: MemoryId[];
  /** The store-bound word embedder when the words leg was built. */
  wordEmbedder: Embedder | undefined;
  /** Wall time of all `remember` calls (rows, FTS, context, audit), ms. */
  writeMs: number;
  /** Wall time of filling the vectors (`embedPending`, cache hits included), ms. */
  embedMs: number;
  close(): Promise<void>;
}

/** The vectors a benchmark store gets, filled the way the engine fills them. */
export interface StoreVectors {
  /** The sentence embedder (`setVector`), usually a `CachedEmbedder`. */
  sentence?: Embedder;
  /** The word-vector table: the store's SIF embedder is opened over it (`setExtraVector`). */
  words?: WordTable;
}

/**
 * Builds the store for one conversation in a new temp dir: every turn through `remember` (the store
 * derives each one's context from its session), then the vectors through the production `embedPending`
 * (content plus context vector), as the engine fills them after capture. After the build the clock rests
 * one day after the last turn, where recall happens.
 */
export async function buildConversationStore(
  turns: readonly CorpusTurn[],
  projectKey: string,
  vectors: StoreVectors = {},
): Promise<ConversationStore> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-'));
  const clock = new FixedClock(turns[0]?.at ?? 0);
  const store = await openSqliteStore({ path: join(dir, 'memories.sqlite'), clock });
  const turnsOf = new Map<MemoryId, string[]>();
  const memoryOf: MemoryId[] = [];
  const began = performance.now();
  for (const turn of turns) {
    clock.set(turn.at);
    const { memory } = await store.remember(
      // The dialog is the user's own record, so every memory has the same (trusted) origin: trust
      // cannot reorder anything here. The session id lets the store derive each turn's context from
      // its neighbours, as it does for the captures of one coding session.
      { content: turn.text, projectKey, origin: 'user', kind: 'note', sessionId: turn.sessionId },
    );
    memoryOf.push(memory.id);
    const list = turnsOf.get(memory.id);
    if (list === undefined) turnsOf.set(memory.id, [turn.id]);
    else list.push(turn.id);
  }
  const writeMs = performance.now() - began;
  const embedBegan = performance.now();
  const all = { max: Number.MAX_SAFE_INTEGER, batchSize: 256 };
  if (vectors.sentence !== undefined) await embedPending(store, vectors.sentence, all);
  let wordEmbedder: Embedder | undefined;
  if (vectors.words !== undefined) {
    wordEmbedder = await openWordEmbedder(store, vectors.words);
    await embedPending(store, wordEmbedder, { ...all, slot: 'extra' });
  }
  const embedMs = performance.now() - embedBegan;
  clock.set(Math.max(...turns.map((t) => t.at)) + 86_400_000);
  return {
    store,
    clock,
    scope: { projectKey, includeGlobal: false },
    turnsOf,
    memoryOf,
    wordEmbedder,
    writeMs,
    embedMs,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
