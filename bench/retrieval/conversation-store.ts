/**
 * One fresh SQLite store per benchmark conversation, written through the real store port
 * (`openSqliteStore` + `remember`) with a fixed clock: each turn is stored at its session's start plus
 * 30 s per turn, so recency is meaningful and every run is identical. Memories record their turn ids,
 * because the store dedupes identical text and one memory may then stand for several turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { MemoryId } from '../../src/core/memory.js';
import type { Clock } from '../../src/ports/clock.js';
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
  /** Wall time of all `remember` calls (rows, FTS, vectors, audit), ms. */
  writeMs: number;
  close(): Promise<void>;
}

/**
 * Builds the store for one conversation in a new temp dir. `vectors` maps an embedding model id to one
 * vector per turn (corpus order); the first is written with the row, the others via `setVector`.
 * After the build the clock rests one day after the last turn, where recall happens.
 */
export async function buildConversationStore(
  turns: readonly CorpusTurn[],
  vectors: ReadonlyMap<string, readonly Float32Array[]>,
  projectKey: string,
): Promise<ConversationStore> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-'));
  const clock = new FixedClock(turns[0]?.at ?? 0);
  const store = await openSqliteStore({ path: join(dir, 'memories.sqlite'), clock });
  const turnsOf = new Map<MemoryId, string[]>();
  const memoryOf: MemoryId[] = [];
  const models = [...vectors.keys()];
  const began = performance.now();
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    clock.set(turn.at);
    const first = models[0];
    const { memory, created } = await store.remember(
      // The dialog is the user's own record, so every memory has the same (trusted) origin: trust
      // cannot reorder anything here.
      { content: turn.text, projectKey, origin: 'user', kind: 'note' },
      first === undefined ? {} : { vector: { model: first, values: vectors.get(first)![i]! } },
    );
    if (created) {
      for (const model of models.slice(1)) {
        await store.setVector(memory.id, { model, values: vectors.get(model)![i]! });
      }
    }
    memoryOf.push(memory.id);
    const list = turnsOf.get(memory.id);
    if (list === undefined) turnsOf.set(memory.id, [turn.id]);
    else list.push(turn.id);
  }
  const writeMs = performance.now() - began;
  clock.set(Math.max(...turns.map((t) => t.at)) + 86_400_000);
  return {
    store,
    clock,
    scope: { projectKey, includeGlobal: false },
    turnsOf,
    memoryOf,
    writeMs,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
