/**
 * Recall latency at scale:
 *
 *   npm run bench:latency [-- --memories 1000,10000,100000 --queries 300 --json out.json]
 *
 * For each size, builds (once, then reuses from the git-ignored cache dir) a SQLite store of synthetic
 * memories with hash-embedder vectors, so it runs offline, then times warm recall in one process: the
 * bare lexical query as baseline, the vector leg, `retrieve()` without an embedder, the prompt-recall
 * request a hook makes (no embedder: the hook path), and fused with the query vector precomputed and
 * including the query embedding. The steps are sampled round-robin (each query runs every step in turn),
 * so load from other processes falls on the baseline and the rest alike, and every figure is also given
 * as a ratio to the baseline measured in the same run. Ingest on the lexical path (no vectors) is timed
 * on a fresh store. `--with-use` also times USE query embedding. The load average is printed.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { injectableOrigins } from '../../src/core/injection/injectable.js';
import type { QuarantineState } from '../../src/core/memory.js';
import { hashEmbed, HashEmbedder } from '../../src/embed/hash-embedder.js';
import { PROMPT_CANDIDATES } from '../../src/hooks/prompt-recall.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { MemoryStore } from '../../src/store/store.js';
import { FixedClock } from './conversation-store.js';
import { percentile } from './metrics.js';
import { ms, table } from './report.js';
import { seededRandom, syntheticQuery, syntheticText } from './synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '300' },
    ingest: { type: 'string', default: '5000' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'with-use': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const counts = args.memories.split(',').map(Number);
const queryCount = Number(args.queries);
const ingestCount = Number(args.ingest);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const PROJECT = 'bench/latency';
const scope = { projectKey: PROJECT, includeGlobal: true };
const embedder = new HashEmbedder();
const model = embedder.model;
const START = Date.UTC(2025, 0, 1);

interface Row {
  step: string;
  n: number;
  p50: number;
  p95: number;
  /** p50 and p95 divided by the baseline's (the bare FTS5 query) in the same run. */
  ratioP50: number;
  ratioP95: number;
}

const random = seededRandom(7);
const queries = Array.from({ length: queryCount }, () => syntheticQuery(random));
const vectors = await embedder.embed(queries);
// An embedder that answers from vectors computed beforehand: recall timed without the query embedding.
const vectorOf = new Map(queries.map((q, i) => [q, vectors[i]!]));
const precomputed: Embedder = {
  model,
  dims: embedder.dims,
  embed: (texts) =>
    Promise.resolve(texts.map((t) => vectorOf.get(t) ?? hashEmbed(t, embedder.dims))),
};

type Step = (query: string, i: number) => Promise<unknown>;

function stepsFor(store: MemoryStore, clock: FixedClock): [string, Step][] {
  const request = (query: string) => ({ query, scope, limit: 10, recordAccess: false });
  // What `mnemo hook user-prompt-submit` asks when no engine runs (hooks/prompt-recall.ts).
  const hookRequest = (query: string) => ({
    query,
    scope,
    limit: PROMPT_CANDIDATES,
    filters: {
      origins: injectableOrigins({ proactiveLocal: false }),
      quarantine: ['none', 'approved'] as QuarantineState[],
    },
  });
  return [
    [
      'baseline: store.searchLexical (bare FTS5 query)',
      (q) => store.searchLexical(q, { scope, limit: 10 }),
    ],
    [
      'vector leg alone: store.searchVector (hash 256-d)',
      (_q, i) => store.searchVector({ model, values: vectors[i]! }, { scope, limit: 10 }),
    ],
    [
      'retrieve() without embedder (lexical + identifier)',
      (q) => retrieve({ store, clock }, request(q)),
    ],
    [
      `hook path: prompt-recall request, no embedder (limit ${PROMPT_CANDIDATES})`,
      (q) => retrieve({ store, clock }, hookRequest(q)),
    ],
    [
      'retrieve() fused, query vector precomputed',
      (q) => retrieve({ store, clock, embedder: precomputed }, request(q)),
    ],
    [
      'retrieve() fused, incl. hash query embedding',
      (q) => retrieve({ store, clock, embedder }, request(q)),
    ],
  ];
}

async function measure(count: number): Promise<{ buildMs: number | null; rows: Row[] }> {
  mkdirSync(args['cache-dir'], { recursive: true });
  const path = join(args['cache-dir'], `latency-${count}-${model}-v1.sqlite`);
  const clock = new FixedClock(START);
  const buildMs = existsSync(path) ? null : await build(path, count);
  const store = await openSqliteStore({ path, clock });
  try {
    clock.set(START + count * 60_000 + 86_400_000);
    const stored = await store.countMemories({ scope });
    if (stored !== count) {
      throw new Error(`${path} holds ${stored} memories, expected ${count}. Delete it.`);
    }
    const steps = stepsFor(store, clock);
    const times = steps.map(() => [] as number[]);
    for (let i = 0; i < Math.min(30, queries.length); i++) {
      for (const [, step] of steps) await step(queries[i]!, i); // warm-up
    }
    for (let i = 0; i < queries.length; i++) {
      for (const [s, [, step]] of steps.entries()) {
        const began = performance.now();
        await step(queries[i]!, i);
        times[s]!.push(performance.now() - began);
      }
    }
    const baseP50 = percentile(times[0]!, 50);
    const baseP95 = percentile(times[0]!, 95);
    const rows = steps.map(([step], s) => {
      const p50 = percentile(times[s]!, 50);
      const p95 = percentile(times[s]!, 95);
      return {
        step,
        n: times[s]!.length,
        p50,
        p95,
        ratioP50: p50 / baseP50,
        ratioP95: p95 / baseP95,
      };
    });
    progress(`${count} memories: done`);
    return { buildMs, rows };
  } finally {
    await store.close();
  }
}

/** Memories per second through `remember` without vectors (the lexical path), into a fresh store. */
async function ingestRate(): Promise<{ memories: number; ms: number; perSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-ingest-'));
  try {
    const clock = new FixedClock(START);
    const store = await openSqliteStore({ path: join(dir, 'mnemo.db'), clock });
    const textRandom = seededRandom(99);
    const texts = Array.from({ length: ingestCount }, (_, i) => syntheticText(textRandom, i));
    const began = performance.now();
    for (const [i, content] of texts.entries()) {
      clock.set(START + i * 1000);
      await store.remember({ content, projectKey: PROJECT, origin: 'user' });
    }
    const elapsed = performance.now() - began;
    await store.close();
    return { memories: ingestCount, ms: elapsed, perSecond: (ingestCount / elapsed) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadAtStart = loadavg();
const results: { memories: number; buildMs: number | null; steps: Row[] }[] = [];
for (const count of counts) {
  const { buildMs, rows } = await measure(count);
  results.push({ memories: count, buildMs, steps: rows });
}
const ingest = await ingestRate();

const embedRows: { model: string; p50: number; p95: number; n: number }[] = [];
const embedders: Embedder[] = [embedder];
if (args['with-use']) {
  const { UseEmbedder } = await import('../../src/embed/use-embedder.js');
  embedders.push(new UseEmbedder());
}
for (const e of embedders) {
  await e.embed(['warm-up']);
  const times: number[] = [];
  for (const q of queries.slice(0, 100)) {
    const began = performance.now();
    await e.embed([q]);
    times.push(performance.now() - began);
  }
  embedRows.push({
    model: e.model,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    n: times.length,
  });
}
const loadAtEnd = loadavg();

const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const out = [
  `# recall latency: memories in one project scope, SQLite, warm process (${machine})`,
  `load average ${load(loadAtStart)} at the start, ${load(loadAtEnd)} at the end`,
];
for (const result of results) {
  out.push(
    '',
    `## ${result.memories} memories: ` +
      (result.buildMs === null
        ? 'store reused from cache'
        : `store built in ${ms(result.buildMs)} ms (${ms(result.buildMs / result.memories)} ms/memory incl. hash embedding)`),
    '',
    table(
      ['step (limit 10 unless said)', 'n', 'p50 ms', 'p95 ms', 'p50 / base', 'p95 / base'],
      result.steps.map((r) => [
        r.step,
        String(r.n),
        ms(r.p50),
        ms(r.p95),
        `${r.ratioP50.toFixed(2)}×`,
        `${r.ratioP95.toFixed(2)}×`,
      ]),
    ),
  );
}
out.push(
  '',
  `ingest, lexical path (remember without vectors, fresh store): ${ingest.memories} memories in ` +
    `${ms(ingest.ms)} ms = ${Math.round(ingest.perSecond)} memories/s`,
  '',
  table(
    ['query embedding alone (single, warm)', 'n', 'p50 ms', 'p95 ms'],
    embedRows.map((r) => [r.model, String(r.n), ms(r.p50), ms(r.p95)]),
  ),
  '',
);
process.stdout.write(out.join('\n'));
if (args.json !== undefined) {
  const report = {
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      ramGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    loadAtStart,
    loadAtEnd,
    results,
    ingest,
    queryEmbedding: embedRows,
  };
  writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
}

async function build(target: string, count: number): Promise<number> {
  // Built under a temporary name and renamed at the end, so an interrupted build is never reused.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const buildClock = new FixedClock(START);
  const s = await openSqliteStore({ path: partial, clock: buildClock });
  const textRandom = seededRandom(42);
  const began = performance.now();
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const texts = Array.from({ length: Math.min(batch, count - start) }, (_, i) =>
      syntheticText(textRandom, start + i),
    );
    const vectors = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      buildClock.set(START + (start + i) * 60_000);
      await s.remember(
        { content: texts[i]!, projectKey: PROJECT, origin: 'user' },
        { vector: { model, values: vectors[i]! } },
      );
    }
    if ((start / batch) % 20 === 0) progress(`built ${start + texts.length}/${count}`);
  }
  const elapsed = performance.now() - began;
  await s.close();
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(partial + suffix)) renameSync(partial + suffix, target + suffix);
  }
  return elapsed;
}
