/**
 * The web viewer's API on a large store: `npm run bench:web [-- --memories 100000 --runs 30 --json out.json]`.
 * Builds (once, then reuses from the git-ignored cache dir) a SQLite store of synthetic memories across
 * origins, review states, source sites, tools and sessions, with injections and counters, then times each
 * page's request through the real Hono app in process (`app.request`, no socket), with the bytes each
 * answer carries: every page must answer from the server's paging and grouping, never by loading the
 * store. Baseline in the same run: the bare `countMemories()` and a 50-row `listMemories()` of the store.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { openApp, processAuthor } from '../../src/app/open-app.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createWebApp } from '../../src/web/create-web-app.js';
import { loadUiAssets } from '../../src/web/web-assets.js';
import { OpenCodes } from '../../src/web/web-open-codes.js';
import { FixedClock } from '../retrieval/conversation-store.js';
import { percentile } from '../retrieval/metrics.js';
import { ms, table } from '../retrieval/report.js';
import { seededRandom, syntheticQuery, syntheticText } from '../retrieval/synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '30' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    json: { type: 'string' },
  },
});
const count = Number(args.memories);
const runs = Number(args.runs);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const PROJECT = '/bench/web';
const START = Date.UTC(2025, 0, 1);
const SITES = [
  'docs.example.com',
  'blog.example.com',
  'evil.example',
  'cdn.evil.example',
  'wiki.example.org',
];
const ORIGINS = [
  'user',
  'agent',
  'local_edit',
  'local_exec',
  'network',
  'network',
  'unknown',
  'agent_tainted',
];
const TOOLS: Record<string, string> = {
  user: 'cli',
  agent: 'mcp__mnemo__remember',
  local_edit: 'Edit',
  local_exec: 'Bash',
  network: 'WebFetch',
  unknown: 'mcp__search__query',
  agent_tainted: 'mcp__mnemo__remember',
};

const embedder = new HashEmbedder();
mkdirSync(args['cache-dir'], { recursive: true });
const home = join(args['cache-dir'], `web-${count}-v2`);
let buildMs: number | null = null;
if (!existsSync(join(home, 'mnemo.db'))) buildMs = await build(home);

const clock = new FixedClock(START + count * 60_000 + 3_600_000);
const app = await openApp({ env: { MNEMO_HOME: home, MNEMO_LOG_LEVEL: 'warn' }, clock });
const stored = await app.store.countMemories({
  quarantine: ['none', 'pending', 'approved', 'rejected'],
});
if (stored !== count)
  throw new Error(`${home} holds ${stored} memories, expected ${count}. Delete it.`);
const token = 'bench-token';
const web = createWebApp({
  app,
  actor: 'web-ui:bench',
  reader: processAuthor(app.config).user,
  models: () => Promise.resolve({ embedder, reranker: undefined }),
  catchUpEmbeddings: false,
  defaultProject: PROJECT,
  servedBy: 'ui',
  identity: { port: () => 7477 },
  token,
  csrfToken: 'bench-csrf',
  assets: loadUiAssets(),
  version: 'bench',
  openCodes: new OpenCodes(),
});
const sample = (await app.store.listMemories({ limit: 1, offset: Math.floor(count / 2) }))[0]!;
const project = encodeURIComponent(PROJECT);
const random = seededRandom(9);
const queries = Array.from({ length: runs }, () => syntheticQuery(random));

type Step = (i: number) => Promise<number>;
const get = async (path: string): Promise<number> => {
  const response = await web.request(path, {
    headers: { host: '127.0.0.1:7477', authorization: `Bearer ${token}` },
  });
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return body.byteLength;
};
const steps: [string, Step][] = [
  ['baseline: store.countMemories()', async () => (await app.store.countMemories(), 0)],
  [
    'baseline: store.listMemories(50)',
    async () => (await app.store.listMemories({ limit: 50 })).length,
  ],
  ['dashboard (30 days, all projects)', () => get('/api/dashboard?days=30')],
  ['dashboard (90 days, one project)', () => get(`/api/dashboard?days=90&project=${project}`)],
  ['memories, first page of 50', () => get('/api/memories?limit=50')],
  ['memories, page at offset 50,000', () => get('/api/memories?limit=50&offset=50000')],
  ['memory detail', () => get(`/api/memories/${sample.id}`)],
  ['review inbox, first page', () => get('/api/review?limit=25')],
  ['review groups by site', () => get('/api/review/groups?by=domain')],
  ['review groups by session', () => get('/api/review/groups?by=session')],
  ['review inbox, one site', () => get('/api/review?by=domain&key=evil.example&limit=25')],
  [
    'search, hybrid in the project (hash vectors)',
    (i) => get(`/api/search?q=${encodeURIComponent(queries[i]!)}&project=${project}`),
  ],
  [
    'search, words across all projects',
    (i) => get(`/api/search?q=${encodeURIComponent(queries[i]!)}`),
  ],
  ['ledger (7 days)', () => get('/api/ledger?days=7')],
];

const rows: { step: string; p50: number; p95: number; bytes: number }[] = [];
for (const [name, step] of steps) {
  for (let i = 0; i < Math.min(3, runs); i++) await step(i); // warm-up
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    bytes = Math.max(bytes, await step(i));
    times.push(performance.now() - began);
  }
  rows.push({ step: name, p50: percentile(times, 50), p95: percentile(times, 95), bytes });
  progress(`${name}: done`);
}
await app.close();

process.stdout.write(
  [
    `# web viewer API: ${count} memories, SQLite, in process (app.request), ${runs} runs per step`,
    buildMs === null ? 'store reused from cache' : `store built in ${ms(buildMs)} ms`,
    '',
    table(
      ['request', 'p50 ms', 'p95 ms', 'largest answer (bytes)'],
      rows.map((r) => [r.step, ms(r.p50), ms(r.p95), r.bytes === 0 ? '–' : String(r.bytes)]),
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
    `${JSON.stringify({ machine, memories: count, buildMs, steps: rows }, null, 2)}\n`,
  );
}

async function build(target: string): Promise<number> {
  // Built under a temporary name and renamed at the end, so an interrupted build is never reused.
  const partial = `${target}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const buildClock = new FixedClock(START);
  const a = await openApp({
    env: { MNEMO_HOME: partial, MNEMO_LOG_LEVEL: 'warn' },
    clock: buildClock,
  });
  const textRandom = seededRandom(42);
  const began = performance.now();
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const texts = Array.from({ length: Math.min(batch, count - start) }, (_, i) =>
      syntheticText(textRandom, start + i),
    );
    const vectors = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const n = start + i;
      buildClock.set(START + n * 60_000);
      const origin = ORIGINS[n % ORIGINS.length]!;
      const held = ['network', 'unknown', 'agent_tainted'].includes(origin);
      const site = SITES[n % SITES.length]!;
      await a.store.remember(
        {
          content: texts[i]!,
          projectKey: n % 10 === 0 ? `${PROJECT}-other` : PROJECT,
          origin,
          originTool: TOOLS[origin] ?? null,
          sessionId: `session-${Math.floor(n / 40)}`,
          quarantine: held ? 'pending' : 'none',
          heatBase: n % 7 === 0 ? 1 + (n % 5) : 0,
          ...(origin === 'network' ? { sourceUrl: `https://${site}/page/${n % 300}` } : {}),
        },
        { vector: { model: embedder.model, values: vectors[i]! } },
      );
      if (n % 50 === 0) {
        await a.store.recordInjection({
          sessionId: `session-${Math.floor(n / 40)}`,
          event: n % 100 === 0 ? 'session-start' : 'prompt-recall',
          source: n % 100 === 0 ? 'startup' : null,
          projectKey: PROJECT,
          memoryIds: [(await a.store.listMemories({ limit: 1 }))[0]!.id],
          tokens: 120,
        });
      }
    }
    await a.store.bumpCounter('write.stored', batch);
    await a.store.bumpCounter('capture.skipped.read_not_captured', batch / 2);
    if ((start / batch) % 20 === 0) progress(`built ${start + texts.length}/${count}`);
  }
  const elapsed = performance.now() - began;
  await a.close();
  rmSync(target, { recursive: true, force: true });
  renameSync(partial, target);
  return elapsed;
}
