import type { Memory } from '../../src/core/memory.js';
import { foldTallies } from '../../src/spool/spool-tally.js';
import { withStore } from './test-app.js';

/** What a store holds after a torture run: the facts the torture tests assert on. */
export interface StoreState {
  memories: Memory[];
  /** `checkIntegrity()`: pages, both full-text indexes against the table, vectors, the audit chain. */
  problems: string[];
  /** Memories with a vector, by model. */
  vectors: Record<string, number>;
  /** Audit entries of each memory, by action (remember, merge, ...), keyed by memory id. */
  auditActions: Map<string, string[]>;
  /** Every counter summed over all days, skip tallies folded in (as `mnemo stats` does). */
  counters: Record<string, number>;
}

/** Opens the home's store through the port and reads everything a torture test checks. */
export function storeState(home: string): Promise<StoreState> {
  return withStore(home, async (app) => {
    await foldTallies(app);
    const memories: Memory[] = [];
    for await (const exported of app.store.exportMemories()) {
      const { vector: _vector, anchors: _anchors, ...memory } = exported;
      memories.push(memory);
    }
    const auditActions = new Map<string, string[]>();
    for (const memory of memories) {
      auditActions.set(
        memory.id,
        (await app.store.auditTrail(memory.id)).map((entry) => entry.action),
      );
    }
    const counters: Record<string, number> = {};
    for (const row of await app.store.readCounters('2000-01-01')) {
      counters[row.name] = (counters[row.name] ?? 0) + row.value;
    }
    return {
      memories,
      problems: await app.store.checkIntegrity(),
      vectors: (await app.store.stats()).vectors,
      auditActions,
      counters,
    };
  });
}

/** How many times each marker occurs across the memories' contents (each should be 0 or 1). */
export function markerCounts(
  memories: readonly Memory[],
  markers: readonly string[],
): Map<string, number> {
  const counts = new Map(markers.map((marker) => [marker, 0]));
  const pattern = /\bmk[0-9a-z]{4,}\b/g;
  for (const memory of memories) {
    for (const found of memory.content.match(pattern) ?? []) {
      if (counts.has(found)) counts.set(found, (counts.get(found) ?? 0) + 1);
    }
  }
  return counts;
}
