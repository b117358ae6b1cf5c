/**
 * Recall latency at scale:
 *
 *   npm run bench:latency [-- --memories 1000,10000,100000 --queries 300 --json out.json
 *                            --words-table <glove-100d.bin>]
 *
 * For each size, builds (once, then reuses from the git-ignored cache dir) a SQLite store of synthetic
 * memories in sessions (`syntheticMemory`) with hash-embedder vectors, so it runs offline, then times
 * warm recall in one process: the
 * bare lexical query as baseline; the vector leg exact (sqlite-vec's scan) and approximate (sign codes
 * in memory, then exact re-scoring: sign-codes.ts; and sqlite-vec's own `bit[]` Hamming KNN with exact
 * re-scoring), with the approximate legs' recall@10 and @30 against the exact one; fusion's exact scoring
 * of a candidate pool (`getVectors`); `retrieve()` without an embedder; the prompt-recall request a hook
 * makes (no embedder: the hook path); fused with the query vector precomputed, with the GloVe words leg
 * too when its table is there (`mnemo model words`; the row says "skipped" otherwise), and including the
 * query embedding; then the vector leg and the fused paths again through the resident vector mirror (the
 * file opened as the engine opens it: mirror-leg.ts), with its load time, memory and agreement with exact. The steps are sampled round-robin (each query runs every step in turn), so load from
 * other processes falls on the baseline and the rest alike, and every figure is also given as a ratio
 * to the baseline measured in the same run. Query embedding alone is timed separately. Ingest on the
 * lexical path (no vectors) is timed on a fresh store. `--with-use` also times USE query embedding. The
 * load average is printed.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { injectableOrigins } from '../../src/core/injection/injectable.js';
import { hashEmbed, HashEmbedder } from '../../src/embed/hash-embedder.js';
import { PROMPT_CANDIDATES } from '../../src/hooks/prompt-recall.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { connectSqlite, openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { MemoryStore } from '../../src/store/store.js';
import {
  type ApproximateLegs,
  type ApproximateRecall,
  approximateRecall,
  openApproximateLegs,
} from './approximate-legs.js';
import { FixedClock } from './conversation-store.js';
import { recallRequests } from './latency-requests.js';
import { percentile } from './metrics.js';
import { describeMirror, loadMirror, type MirrorBench, type MirrorSummary } from './mirror-leg.js';
import { ms, table } from './report.js';
import { seededRandom, syntheticMemory, syntheticQuery, syntheticText } from './synthetic-text.js';
import { wordsLeg } from './words-leg.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '300' },
    ingest: { type: 'string', default: '5000' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'with-use': { type: 'boolean', default: false },
    'words-table': { type: 'string' },
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
  /** 0 for a step that did not run (see `skipped`). */
  n: number;
  skipped?: string;
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
/** A step, or why it cannot run in this process. */
type StepEntry = [string, Step | { skipped: string }];

/** Vector-leg depth: what fusion asks each leg for a result of 10 (`candidateDepth`). */
const LEG_DEPTH = 30;
/** Candidates the approximate legs re-score exactly. */
const RESCORE = [400, 1000] as const;
/** Pool size fusion scores by exact cosine (`getVectors`): the lexical leg's candidates. */
const POOL = 60;

interface StepDeps {
  store: MemoryStore;
  clock: FixedClock;
  approximate: ApproximateLegs;
  /** The lexical candidates of each query: the pool fusion asks `getVectors` for. */
  pools: string[][];
  /** The words leg's embedder answering from precomputed query vectors, or why there is none. */
  words: Embedder | { skipped: string };
  /** The same file opened with the resident vector mirror, as the engine opens it (mirror-leg.ts). */
  mirror: MirrorBench;
}

function stepsFor(deps: StepDeps): StepEntry[] {
  const { store, clock, approximate, pools, words } = deps;
  const { request, hookRequest } = recallRequests(scope, injectableOrigins, PROMPT_CANDIDATES);
  return [
    [
      'baseline: store.searchLexical (bare FTS5 query)',
      (q) => store.searchLexical(q, { scope, limit: 10 }),
    ],
    [
      `vector leg, exact: store.searchVector (hash 256-d, limit ${LEG_DEPTH})`,
      (_q, i) => store.searchVector({ model, values: vectors[i]! }, { scope, limit: LEG_DEPTH }),
    ],
    ...RESCORE.map(
      (r): StepEntry => [
        `vector leg, approximate: sign codes in memory, exact re-score of ${r}`,
        (_q, i) => approximate.signCodes(vectors[i]!, LEG_DEPTH, r),
      ],
    ),
    [
      `vector leg, approximate: sqlite-vec bit[] Hamming k=${RESCORE[0]}, exact re-score`,
      (_q, i) => Promise.resolve(approximate.sqliteBits(vectors[i]!, LEG_DEPTH, RESCORE[0])),
    ],
    [
      `fusion's exact scores: store.getVectors for ${POOL} pool candidates`,
      (_q, i) => store.getVectors(pools[i]!, model),
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
      'retrieve() fused + GloVe words leg, both query vectors precomputed',
      'skipped' in words
        ? words
        : (q) => retrieve({ store, clock, embedder: precomputed, wordEmbedder: words }, request(q)),
    ],
    ...deps.mirror.steps,
    [
      'retrieve() fused, incl. hash query embedding',
      (q) => retrieve({ store, clock, embedder }, request(q)),
    ],
  ];
}

interface SizeResult {
  buildMs: number | null;
  rows: Row[];
  approximate: (ApproximateRecall & { space: string })[];
  /** Reading the vectors and building the sign codes and the bit[] table (bench set-up, not recall). */
  approximateBuildMs: number;
  mirror: MirrorSummary;
}

async function measure(count: number): Promise<SizeResult> {
  mkdirSync(args['cache-dir'], { recursive: true });
  const path = join(args['cache-dir'], `latency-${count}-${model}-v2.sqlite`);
  const clock = new FixedClock(START);
  const buildMs = existsSync(path) ? null : await build(path, count);
  const store = await openSqliteStore({ path, clock });
  let approximate: ApproximateLegs | undefined;
  let mirror: MirrorBench | undefined;
  try {
    clock.set(START + count * 60_000 + 86_400_000);
    const stored = await store.countMemories({ scope });
    if (stored !== count) {
      throw new Error(`${path} holds ${stored} memories, expected ${count}. Delete it.`);
    }
    const on = { table: args['words-table'], queries, progress };
    const words = await wordsLeg(store, on);
    approximate = openApproximateLegs(
      connectSqlite(path, { readonly: true }),
      store,
      model,
      embedder.dims,
    );
    const pools = await Promise.all(
      queries.map(async (q) =>
        (await store.searchLexical(q, { scope, limit: POOL })).map((hit) => hit.id),
      ),
    );
    const depth = { depth: LEG_DEPTH, rescore: RESCORE };
    const recall = (
      await approximateRecall({ store, approximate, vectors, model, scope }, depth)
    ).map((r) => ({ ...r, space: `${model} (synthetic)` }));
    if (!('skipped' in words)) {
      // The same first passes over the words leg's vectors: a learned embedding, centred (SIF removes
      // the common component), unlike the hash vectors.
      const wordsApproximate = openApproximateLegs(
        connectSqlite(path, { readonly: true }),
        store,
        words.model,
        words.dims,
      );
      try {
        const wordVectors = await words.embed(queries);
        const on = { store, approximate: wordsApproximate, vectors: wordVectors, scope };
        for (const r of await approximateRecall({ ...on, model: words.model }, depth)) {
          recall.push({ ...r, space: `${words.model} (GloVe SIF, words leg)` });
        }
      } finally {
        wordsApproximate.close();
      }
    }
    // Opened after the bench's own writes (words vectors), which would leave it stale (vec0 answers).
    const input = { path, clock, exact: store, model, dims: embedder.dims, vectors, scope, words };
    mirror = await loadMirror({ ...input, depth: LEG_DEPTH, precomputed });
    const entries = stepsFor({ store, clock, approximate, pools, words, mirror });
    const steps = entries.flatMap(([name, step]) =>
      typeof step === 'function' ? [[name, step] as const] : [],
    );
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
    const timed = new Map(steps.map(([name], s) => [name, times[s]!]));
    const rows = entries.map(([step, run]): Row => {
      const t = timed.get(step);
      if (t === undefined || typeof run !== 'function') {
        const skipped = typeof run === 'function' ? 'not run' : run.skipped;
        return { step, n: 0, skipped, p50: NaN, p95: NaN, ratioP50: NaN, ratioP95: NaN };
      }
      const p50 = percentile(t, 50);
      const p95 = percentile(t, 95);
      return { step, n: t.length, p50, p95, ratioP50: p50 / baseP50, ratioP95: p95 / baseP95 };
    });
    progress(`${count} memories: done`);
    const { buildMs: approximateBuildMs } = approximate;
    return { buildMs, rows, approximate: recall, approximateBuildMs, mirror: mirror.summary() };
  } finally {
    await mirror?.close();
    approximate?.close();
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
      await store.remember(syntheticMemory(content, i, PROJECT));
    }
    const elapsed = performance.now() - began;
    await store.close();
    return { memories: ingestCount, ms: elapsed, perSecond: (ingestCount / elapsed) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadAtStart = loadavg();
const results: ({ memories: number; steps: Row[] } & Omit<SizeResult, 'rows'>)[] = [];
for (const count of counts) {
  const { rows, ...rest } = await measure(count);
  results.push({ memories: count, steps: rows, ...rest });
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
      result.steps.map((r) =>
        r.skipped === undefined
          ? [
              r.step,
              String(r.n),
              ms(r.p50),
              ms(r.p95),
              `${r.ratioP50.toFixed(2)}×`,
              `${r.ratioP95.toFixed(2)}×`,
            ]
          : [r.step, '0', r.skipped, '', '', ''],
      ),
    ),
    '',
    table(
      [
        `approximate vector leg vs exact (${queries.length} queries)`,
        'vector space',
        're-scored',
        'recall@10',
        `recall@${LEG_DEPTH}`,
      ],
      result.approximate.map((r) => [
        r.leg,
        r.space,
        String(r.rescore),
        r.recallAt10.toFixed(3),
        r.recallAtDepth.toFixed(3),
      ]),
    ),
    `(reading the vectors and building both code sets: ${ms(result.approximateBuildMs)} ms, once)`,
    `\n${describeMirror(result.mirror, LEG_DEPTH)}`,
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
      await s.remember(syntheticMemory(texts[i]!, start + i, PROJECT), {
        vector: { model, values: vectors[i]! },
      });
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
