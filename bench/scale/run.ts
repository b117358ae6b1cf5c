/**
 * How cost grows with store size: `npm run bench:scale [-- --sizes 1000,10000,100000 --queries 200]`.
 *
 * Two SQLite stores grow through the same checkpoints (default 1k → 10k → 100k memories of synthetic
 * coding-agent text, written through `remember` like real memories, in one project scope): one on the
 * lexical path (no vectors, as a hook stores a capture) and one with embeddings (hash embedder, 256-d,
 * offline; the vector is stored with the memory as the engine's embed step does). At each checkpoint it
 * records ingest throughput of the last segment, bytes on disk per memory (the file after a close folded
 * the WAL in), and warm recall p50/p95: the bare FTS5 query as the same-run baseline, `retrieve()` on
 * the lexical path (the hook's), and `retrieve()` fused (lexical + identifier + vector). At the largest
 * size it starts the built engine on the embeddings store and reads its resident memory. Writes the
 * table to stdout, and with `--svg <file>` a chart of recall latency against size (log scale).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { MemoryStore } from '../../src/store/store.js';
import { FixedClock } from '../retrieval/conversation-store.js';
import { percentile } from '../retrieval/metrics.js';
import { ms, table } from '../retrieval/report.js';
import { seededRandom, syntheticQuery, syntheticText } from '../retrieval/synthetic-text.js';
import { scaleChart } from './chart.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '200' },
    svg: { type: 'string' },
    /** Redraw the chart from a `--json` report of an earlier run, without measuring. */
    'chart-from': { type: 'string' },
    json: { type: 'string' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const queryCount = Number(args.queries);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const PROJECT = 'bench/scale';
const scope = { projectKey: PROJECT, includeGlobal: true };
const START = Date.UTC(2025, 0, 1);
const embedder = new HashEmbedder();

interface Checkpoint {
  size: number;
  path: 'lexical' | 'embeddings';
  ingestPerSecond: number;
  bytesPerMemory: number;
  steps: Record<string, { p50: number; p95: number }>;
}

function bytesOnDisk(file: string): number {
  return ['', '-wal'].reduce(
    (sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0),
    0,
  );
}

async function timeSteps(
  store: MemoryStore,
  clock: FixedClock,
  withVectors: boolean,
): Promise<Checkpoint['steps']> {
  const random = seededRandom(7);
  const queries = Array.from({ length: queryCount }, () => syntheticQuery(random));
  const request = (query: string) => ({ query, scope, limit: 10, recordAccess: false });
  const steps: [string, (q: string) => Promise<unknown>][] = [
    ['baseline: bare FTS5 query', (q) => store.searchLexical(q, { scope, limit: 10 })],
    ['retrieve(), lexical (hook path)', (q) => retrieve({ store, clock }, request(q))],
  ];
  if (withVectors) {
    steps.push([
      'retrieve(), fused + query embedding',
      (q) => retrieve({ store, clock, embedder }, request(q)),
    ]);
  }
  const out: Checkpoint['steps'] = {};
  for (const [name, step] of steps) {
    for (const q of queries.slice(0, 20)) await step(q);
    const times: number[] = [];
    for (const q of queries) {
      const began = performance.now();
      await step(q);
      times.push(performance.now() - began);
    }
    out[name] = { p50: percentile(times, 50), p95: percentile(times, 95) };
  }
  return out;
}

async function grow(
  dir: string,
  kind: Checkpoint['path'],
): Promise<{ checkpoints: Checkpoint[]; file: string }> {
  const file = join(dir, kind, 'mnemo.db');
  mkdirSync(join(dir, kind), { recursive: true });
  const clock = new FixedClock(START);
  let store = await openSqliteStore({ path: file, clock });
  const textRandom = seededRandom(42);
  const checkpoints: Checkpoint[] = [];
  let written = 0;
  try {
    for (const size of sizes) {
      const began = performance.now();
      for (let start = written; start < size; start += 500) {
        const texts = Array.from({ length: Math.min(500, size - start) }, (_, i) =>
          syntheticText(textRandom, start + i),
        );
        const vectors = kind === 'embeddings' ? await embedder.embed(texts) : [];
        for (let i = 0; i < texts.length; i++) {
          clock.set(START + (start + i) * 60_000);
          const vector = vectors[i];
          await store.remember(
            { content: texts[i]!, projectKey: PROJECT, origin: 'user' },
            vector === undefined
              ? undefined
              : { vector: { model: embedder.model, values: vector } },
          );
        }
      }
      const seconds = (performance.now() - began) / 1000;
      const segment = size - written;
      written = size;
      clock.set(START + size * 60_000 + 86_400_000);
      const steps = await timeSteps(store, clock, kind === 'embeddings');
      // Closing folds the WAL into the file: the size is the store's, not the log's.
      await store.close();
      const bytesPerMemory = bytesOnDisk(file) / size;
      store = await openSqliteStore({ path: file, clock });
      const point: Checkpoint = {
        size,
        path: kind,
        ingestPerSecond: segment / seconds,
        bytesPerMemory,
        steps,
      };
      checkpoints.push(point);
      progress(
        `${kind} ${size}: ${point.ingestPerSecond.toFixed(0)} memories/s, ${point.bytesPerMemory.toFixed(0)} B/memory`,
      );
    }
  } finally {
    await store.close();
  }
  return { checkpoints, file };
}

/** Starts the built engine on `home`, waits until it answers, and reads its resident set (KiB). */
async function engineRss(home: string): Promise<{ startedKib: number; afterRecallsKib: number }> {
  const bin = join(process.cwd(), 'dist', 'cli', 'main.js');
  const env = {
    ...process.env,
    MNEMO_HOME: home,
    MNEMO_EMBEDDING_MODEL: 'hash',
    MNEMO_ENGINE_AUTOSTART: '0',
  };
  const child = spawn(process.execPath, [bin, 'serve', '--foreground', '--idle-exit', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    for (let i = 0; i < 600 && !out.includes('mnemo engine running'); i += 1)
      await new Promise((r) => setTimeout(r, 100));
    const rss = () =>
      Number(
        /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Number.NaN,
      );
    const startedKib = rss();
    const random = seededRandom(9);
    for (let i = 0; i < 20; i += 1) {
      execFileSync(process.execPath, [bin, 'recall', syntheticQuery(random)], {
        env,
        stdio: 'ignore',
      });
    }
    return { startedKib, afterRecallsKib: rss() };
  } finally {
    child.kill('SIGTERM');
  }
}

if (args['chart-from'] !== undefined) {
  const report = JSON.parse(readFileSync(args['chart-from'], 'utf8')) as {
    machine: string;
    checkpoints: Checkpoint[];
  };
  writeFileSync(args.svg ?? 'docs/bench-scale.svg', scaleChart(report.checkpoints, report.machine));
  process.exit(0);
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const loadBefore = loadavg()[0]!.toFixed(2);
const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-scale-'));
try {
  const lexical = await grow(dir, 'lexical');
  const embedded = await grow(dir, 'embeddings');
  const rss = await engineRss(join(dir, 'embeddings'));
  const all = [...lexical.checkpoints, ...embedded.checkpoints];
  const stepNames = [...new Set(all.flatMap((c) => Object.keys(c.steps)))];
  process.stdout.write(
    [
      `# bench:scale — ${machine}; load average ${loadBefore} at start, ${loadavg()[0]!.toFixed(2)} at end`,
      '',
      table(
        [
          'path',
          'memories',
          'ingest memories/s',
          'bytes on disk / memory',
          ...stepNames.map((s) => `${s} p50 / p95 ms`),
        ],
        all.map((c) => [
          c.path,
          String(c.size),
          c.ingestPerSecond.toFixed(0),
          c.bytesPerMemory.toFixed(0),
          ...stepNames.map((s) =>
            c.steps[s] === undefined ? '–' : `${ms(c.steps[s].p50)} / ${ms(c.steps[s].p95)}`,
          ),
        ]),
      ),
      '',
      `engine resident memory on the ${sizes.at(-1)} store with embeddings: ${(rss.startedKib / 1024).toFixed(0)} MiB started, ` +
        `${(rss.afterRecallsKib / 1024).toFixed(0)} MiB after 20 \`mnemo recall\` runs`,
      '',
    ].join('\n'),
  );
  if (args.svg !== undefined) writeFileSync(args.svg, scaleChart(all, machine));
  if (args.json !== undefined)
    writeFileSync(args.json, `${JSON.stringify({ machine, checkpoints: all, rss }, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
