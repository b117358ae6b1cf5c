/**
 * Recall latency at scale: `npm run bench:latency [-- --memories 100000 --queries 300 --json out.json]`.
 * Builds (once, then reuses from the git-ignored cache dir) a SQLite store of synthetic memories with
 * hash-embedder vectors, so it runs offline, then times warm recall in one process: the bare lexical
 * query as baseline, the vector leg, and `retrieve()` without an embedder, fused with the query vector
 * precomputed, and fused including the query embedding. `--with-use` also times USE query embedding.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { hashEmbed, HashEmbedder } from '../../src/embed/hash-embedder.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { FixedClock } from './conversation-store.js';
import { percentile } from './metrics.js';
import { ms, table } from './report.js';
import { seededRandom, syntheticQuery, syntheticText } from './synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'with-use': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const count = Number(args.memories);
const queryCount = Number(args.queries);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const PROJECT = 'bench/latency';
const scope = { projectKey: PROJECT, includeGlobal: true };
const embedder = new HashEmbedder();
const model = embedder.model;
const START = Date.UTC(2025, 0, 1);

mkdirSync(args['cache-dir'], { recursive: true });
const path = join(args['cache-dir'], `latency-${count}-${model}-v1.sqlite`);
const clock = new FixedClock(START);
let buildMs: number | null = null;
if (!existsSync(path)) buildMs = await build(path);
const store = await openSqliteStore({ path, clock });
clock.set(START + count * 60_000 + 86_400_000);
const stored = await store.countMemories({ scope });
if (stored !== count)
  throw new Error(`${path} holds ${stored} memories, expected ${count}. Delete it.`);

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
const request = (query: string) => ({ query, scope, limit: 10, recordAccess: false });
const steps: [string, Step][] = [
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
    'retrieve() fused, query vector precomputed',
    (q) => retrieve({ store, clock, embedder: precomputed }, request(q)),
  ],
  [
    'retrieve() fused, incl. hash query embedding',
    (q) => retrieve({ store, clock, embedder }, request(q)),
  ],
];

const rows: { step: string; p50: number; p95: number; n: number }[] = [];
for (const [name, step] of steps) {
  for (let i = 0; i < Math.min(30, queries.length); i++) await step(queries[i]!, i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < queries.length; i++) {
    const began = performance.now();
    await step(queries[i]!, i);
    times.push(performance.now() - began);
  }
  rows.push({
    step: name,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    n: times.length,
  });
  progress(`${name}: done`);
}

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
await store.close();

process.stdout.write(
  [
    `# recall latency: ${count} memories in one project scope, SQLite, warm process`,
    buildMs === null
      ? 'store reused from cache'
      : `store built in ${ms(buildMs)} ms (${ms(buildMs / count)} ms/memory incl. hash embedding)`,
    '',
    table(
      ['step (limit 10)', 'n', 'p50 ms', 'p95 ms'],
      rows.map((r) => [r.step, String(r.n), ms(r.p50), ms(r.p95)]),
    ),
    '',
    table(
      ['query embedding alone (single, warm)', 'n', 'p50 ms', 'p95 ms'],
      embedRows.map((r) => [r.model, String(r.n), ms(r.p50), ms(r.p95)]),
    ),
    '',
  ].join('\n'),
);
if (args.json !== undefined) {
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    ramGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  writeFileSync(
    args.json,
    `${JSON.stringify({ machine, memories: count, buildMs, steps: rows, queryEmbedding: embedRows }, null, 2)}\n`,
  );
}

async function build(target: string): Promise<number> {
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
