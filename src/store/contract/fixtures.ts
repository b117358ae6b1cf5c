/**
 * Shared data for the store contract suite: realistic memories, deterministic vectors (seeded PRNG, no
 * Math.random) and a brute-force cosine reference the vector search is checked against.
 */
import type { MemoryVector, NewMemory } from '../../core/memory.js';
import type { Clock } from '../../ports/clock.js';

/** mulberry32: tiny, seedable, good enough for test vectors. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` vectors of `dims` values in [-1, 1), the same for the same seed. */
export function deterministicVectors(count: number, dims: number, seed: number): Float32Array[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Float32Array.from({ length: dims }, () => next() * 2 - 1),
  );
}

export function vectorOf(model: string, values: readonly number[] | Float32Array): MemoryVector {
  return { model, values: Float32Array.from(values) };
}

/** Cosine distance computed in float64 from float32 inputs, the reference for KNN results. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return 1 - dot / Math.sqrt(na * nb);
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #time: number;
  constructor(start = '2025-01-01T00:00:00.000Z') {
    this.#time = Date.parse(start);
  }
  now(): Date {
    return new Date(this.#time);
  }
  advance(ms: number): void {
    this.#time += ms;
  }
}

export const PROJECT_A = '/home/dev/projects/alpha';
export const PROJECT_B = '/home/dev/projects/beta';

/** Notes of the kinds an agent really writes, spread over two projects and the global scope. */
export const SAMPLE_MEMORIES: readonly NewMemory[] = [
  {
    content:
      'Run the test suite with `npm test`; it builds first so child-process tests see dist/.',
    projectKey: PROJECT_A,
    kind: 'fact',
    tags: ['testing', 'npm'],
    origin: 'user',
  },
  {
    content: 'Decision: store timestamps as ISO-8601 UTC strings, never local time.',
    projectKey: PROJECT_A,
    kind: 'decision',
    tags: ['time', 'schema'],
    origin: 'user',
  },
  {
    content: 'Error: SQLITE_BUSY when two hooks write at once; fixed by WAL and busy_timeout.',
    projectKey: PROJECT_A,
    kind: 'error',
    tags: ['sqlite', 'concurrency'],
    origin: 'local_exec',
    originTool: 'Bash',
  },
  {
    content: 'The billing service reads STRIPE_WEBHOOK_SECRET from the environment.',
    projectKey: PROJECT_B,
    kind: 'fact',
    tags: ['billing', 'config'],
    origin: 'user',
  },
  {
    content: 'Prefer small pure functions in core/; keep I/O behind ports.',
    projectKey: PROJECT_B,
    visibility: 'global',
    kind: 'preference',
    tags: ['style'],
    origin: 'user',
  },
  {
    content: 'Café menu parser: naïve résumé tokens must match with or without accents.',
    projectKey: PROJECT_B,
    kind: 'note',
    tags: ['unicode'],
    origin: 'agent',
  },
];

/** Queries that must never throw, whatever the backend's query language. */
export const HOSTILE_QUERIES: readonly string[] = [
  '"',
  '""',
  '"unterminated',
  'NEAR(a b)',
  'NEAR(a b, 3)',
  'a AND b OR NOT c',
  'AND',
  'OR OR OR',
  'NOT',
  '*',
  'prefix*',
  '-',
  '-negated',
  '^start',
  'column:value',
  'content:"x"',
  '(',
  ')',
  '((a) OR (b',
  '{a b}',
  '[a]',
  "'single'",
  '\\',
  '🎉🔥 emoji only',
  'mixed🎉word',
  'nul\u0000byte',
  '\u0000',
  '   ',
  '',
  '\u200b\u200d',
  'SELECT * FROM memories; --',
  '%_%',
  'x'.repeat(100_000),
  'word '.repeat(20_000),
];
