/**
 * The resident vector mirror in `bench:latency`: a second store on the same file opened as the engine
 * opens it (`residentVectors`), what loading it costs (time, memory), whether its answers equal the exact
 * vec0 path's for every query (they must: the mirror only picks candidates, sqlite-vec scores them), and
 * the steps timed through it: the vector leg, the JS scan alone, and `retrieve()` fused.
 */
import type { Clock } from '../../src/ports/clock.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { knnK } from '../../src/store/sqlite/sqlite-search.js';
import type { SqliteMemoryStore } from '../../src/store/sqlite/sqlite-store.js';
import type { MemoryStore, Scope } from '../../src/store/store.js';
import { recallAt } from './sign-codes.js';

type Step = (query: string, i: number) => Promise<unknown>;

export interface MirrorSummary {
  /** Wall time from open to ready (the build yields to the event loop between chunks). */
  loadMs: number;
  /** Bytes of the mirror's arrays, rows held, and the process's growth in array-buffer memory. */
  bytes: number;
  rows: number;
  arrayBuffersGrowth: number;
  /** Queries (of `queries`) whose hits (ids and distances, in order) equal the exact path's. */
  identical: number;
  queries: number;
  recallAt10: number;
  /** Searches the mirror answered itself over the whole run (the rest went to vec0). */
  answered: number;
}

export interface MirrorBench {
  steps: [string, Step | { skipped: string }][];
  summary(): MirrorSummary;
  close(): Promise<void>;
}

export interface MirrorBenchInput {
  path: string;
  clock: Clock;
  exact: MemoryStore;
  model: string;
  dims: number;
  vectors: readonly Float32Array[];
  scope: Scope;
  depth: number;
  /** The sentence embedder answering from precomputed query vectors. */
  precomputed: Embedder;
  words: Embedder | { skipped: string };
}

export async function loadMirror(input: MirrorBenchInput): Promise<MirrorBench> {
  const { path, clock, model, dims, vectors, scope, depth, precomputed, words } = input;
  const before = process.memoryUsage().arrayBuffers;
  const began = performance.now();
  const store = (await openSqliteStore({
    path,
    clock,
    residentVectors: true,
  })) as SqliteMemoryStore;
  const mirror = store.vectorMirror!;
  await mirror.settled();
  const loadMs = performance.now() - began;
  const status = mirror.status();
  const sentence = status.spaces.find((space) => space.dims === dims);
  if (status.state !== 'ready' || sentence === undefined) {
    await store.close();
    throw new Error(`The mirror did not load a ${dims}-d space (${status.state}).`);
  }
  const arrayBuffersGrowth = process.memoryUsage().arrayBuffers - before;
  let identical = 0;
  let at10 = 0;
  for (const values of vectors) {
    const truth = await input.exact.searchVector({ model, values }, { scope, limit: depth });
    const hits = await store.searchVector({ model, values }, { scope, limit: depth });
    if (JSON.stringify(hits) === JSON.stringify(truth)) identical++;
    at10 += recallAt(
      10,
      hits.map((h) => h.id),
      truth.map((h) => h.id),
    );
  }
  const request = (query: string) => ({ query, scope, limit: 10, recordAccess: false });
  const k = knnK(depth);
  const steps: MirrorBench['steps'] = [
    [
      `vector leg, resident mirror: store.searchVector (hash 256-d, limit ${depth})`,
      (_q, i) => store.searchVector({ model, values: vectors[i]! }, { scope, limit: depth }),
    ],
    [
      `resident mirror: the JS scan and top ${k} alone (no SQL)`,
      (_q, i) => Promise.resolve(mirror.nearest(sentence.table, vectors[i]!, k)),
    ],
    [
      'retrieve() fused, resident mirror, query vector precomputed',
      (q) => retrieve({ store, clock, embedder: precomputed }, request(q)),
    ],
    [
      'retrieve() fused + GloVe words leg, resident mirror, both precomputed',
      'skipped' in words
        ? words
        : (q) => retrieve({ store, clock, embedder: precomputed, wordEmbedder: words }, request(q)),
    ],
  ];
  return {
    steps,
    summary: () => ({
      loadMs,
      bytes: status.spaces.reduce((sum, space) => sum + space.bytes, 0),
      rows: status.spaces.reduce((sum, space) => sum + space.rows, 0),
      arrayBuffersGrowth,
      identical,
      queries: vectors.length,
      recallAt10: at10 / Math.max(1, vectors.length),
      answered: mirror.status().answered,
    }),
    close: () => store.close(),
  };
}

/** One line for the report: the load and the agreement at one store size. */
export function describeMirror(m: MirrorSummary, depth: number): string {
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  return (
    `resident mirror: ${m.rows} vectors (every space) loaded in ${Math.round(m.loadMs)} ms, ` +
    `${mb(m.bytes)} MiB of arrays (array-buffer memory +${mb(m.arrayBuffersGrowth)} MiB); ` +
    `vs exact over ${m.queries} queries (limit ${depth}): ${m.identical} identical, ` +
    `recall@10 ${m.recallAt10.toFixed(3)}; ${m.answered} searches answered by the mirror itself`
  );
}
