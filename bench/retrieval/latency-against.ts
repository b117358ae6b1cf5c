/**
 * Recall latency of this checkout against another checkout of mnemo, in one process:
 *
 *   npm run bench:latency:against -- --checkout <other checkout> --checkout-store <its store>
 *                                    [--store <this checkout's store>] [--queries 200]
 *
 * Each checkout's own code (`openSqliteStore`, `retrieve`) opens a store its own code built: run
 * `npm run bench:latency -- --memories 100000` in both checkouts first (each caches its store under
 * `.bench-cache/`). The other checkout must have its dependencies installed. Every query runs every step
 * of both checkouts in turn (round-robin), so load from other processes falls on both alike: the fair
 * way to say whether a change made recall slower on a shared machine, where single runs swing widely.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import type * as InjectableModule from '../../src/core/injection/injectable.js';
import type * as EmbedderModule from '../../src/embed/hash-embedder.js';
import type * as PromptRecallModule from '../../src/hooks/prompt-recall.js';
import type * as RetrieveModule from '../../src/retrieval/retrieve.js';
import type * as StoreModule from '../../src/store/sqlite/open-sqlite-store.js';
import { recallRequests } from './latency-requests.js';
import { percentile } from './metrics.js';
import { ms, table } from './report.js';
import { seededRandom, syntheticQuery } from './synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    checkout: { type: 'string' },
    'checkout-store': { type: 'string' },
    store: { type: 'string', default: '.bench-cache/latency-100000-hash-v1-256-v2.sqlite' },
    queries: { type: 'string', default: '200' },
  },
});
if (args.checkout === undefined || args['checkout-store'] === undefined) {
  process.stderr.write(
    'Give the other checkout and the store its code built: --checkout <dir> --checkout-store <file>.\n',
  );
  process.exit(2);
}
for (const path of [args.store, args['checkout-store']]) {
  if (!existsSync(path)) {
    process.stderr.write(
      `No store at ${path}. Build it with \`npm run bench:latency -- --memories 100000\` in its checkout.\n`,
    );
    process.exit(2);
  }
}

/** The parts of a checkout this benchmark calls, loaded from its own sources. */
interface Checkout {
  readonly name: string;
  readonly steps: Step[];
}
interface Step {
  readonly label: string;
  readonly run: (query: string) => Promise<unknown>;
  readonly times: number[];
}

// The same scope, clock and query stream as bench:latency (latency.ts), so the stores it built answer.
const START = Date.UTC(2025, 0, 1);
const clock = { now: () => new Date(START) };
const scope = { projectKey: 'bench/latency', includeGlobal: true };
const queryCount = Number(args.queries);
const random = seededRandom(7);
const queries = Array.from({ length: queryCount }, () => syntheticQuery(random));

async function load(name: string, root: string, storePath: string): Promise<Checkout> {
  // Typed by this checkout's modules: the other checkout is taken to have the same entry points.
  const from = async <T>(path: string): Promise<T> => (await import(join(root, path))) as T;
  const { openSqliteStore } = await from<typeof StoreModule>(
    'src/store/sqlite/open-sqlite-store.ts',
  );
  const { retrieve } = await from<typeof RetrieveModule>('src/retrieval/retrieve.ts');
  const { HashEmbedder } = await from<typeof EmbedderModule>('src/embed/hash-embedder.ts');
  const { injectableOrigins } = await from<typeof InjectableModule>(
    'src/core/injection/injectable.ts',
  );
  const { PROMPT_CANDIDATES } = await from<typeof PromptRecallModule>('src/hooks/prompt-recall.ts');
  const store = await openSqliteStore({ path: storePath, clock });
  const embedder = new HashEmbedder();
  const vectors = await embedder.embed(queries);
  const vectorOf = new Map(queries.map((q, i) => [q, vectors[i]!]));
  // Recall timed without the query embedding, as bench:latency's "precomputed" step.
  const precomputed = {
    model: embedder.model,
    dims: embedder.dims,
    embed: (texts: readonly string[]) => Promise.resolve(texts.map((t) => vectorOf.get(t)!)),
  };
  const { request, hookRequest } = recallRequests(scope, injectableOrigins, PROMPT_CANDIDATES);
  const step = (label: string, run: Step['run']): Step => ({ label, run, times: [] });
  return {
    name,
    steps: [
      step('bare store.searchLexical', (q) => store.searchLexical(q, { scope, limit: 10 })),
      step('vector leg: store.searchVector (limit 30)', (q) =>
        store.searchVector(
          { model: embedder.model, values: vectorOf.get(q)! },
          { scope, limit: 30 },
        ),
      ),
      step('retrieve() without embedder', (q) => retrieve({ store, clock }, request(q))),
      step(`hook path: prompt-recall request (limit ${PROMPT_CANDIDATES})`, (q) =>
        retrieve({ store, clock }, hookRequest(q)),
      ),
      step('retrieve() fused, query vector precomputed', (q) =>
        retrieve({ store, clock, embedder: precomputed }, request(q)),
      ),
    ],
  };
}

const checkouts = [
  await load(`other: ${args.checkout}`, resolve(args.checkout), resolve(args['checkout-store'])),
  await load('this checkout', resolve('.'), resolve(args.store)),
];
const before = loadavg();
const warmUp = queries.slice(0, 30);
for (const query of warmUp) for (const c of checkouts) for (const s of c.steps) await s.run(query);
const stepCount = checkouts[0]!.steps.length;
for (const query of queries) {
  for (let k = 0; k < stepCount; k++) {
    for (const c of checkouts) {
      const s = c.steps[k]!;
      const started = performance.now();
      await s.run(query);
      s.times.push(performance.now() - started);
    }
  }
}
const avg = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
process.stdout.write(
  `# recall latency, two checkouts round-robin, ${queryCount} queries; load average ${avg(before)} at the start, ${avg(loadavg())} at the end\n\n`,
);
process.stdout.write(
  table(
    ['step', ...checkouts.map((c) => `${c.name} p50 / p95 ms`)],
    checkouts[0]!.steps.map((s, k) => [
      s.label,
      ...checkouts.map((c) => {
        const times = c.steps[k]!.times;
        return `${ms(percentile(times, 50))} / ${ms(percentile(times, 95))}`;
      }),
    ]),
  ) + '\n',
);
