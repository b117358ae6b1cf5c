/**
 * Fits calibrated relevance (src/core/ranking/relevance.ts): `npm run bench:calibrate`.
 *
 * Each project of the coding-memory set becomes a real SQLite store (memories as a person writes them,
 * vectors of the engine's sentence model filled by the production `embedPending`); every question and
 * every negative prompt is recalled twice, as the engine-down hook does (word legs only) and as the
 * engine does (with the sentence model). Each of the top `--depth` hits is one sample: its evidence,
 * and whether it is a memory the question needs (negative prompts need none). The logistic model of each
 * path is fit on the tuning split (projects 0–2, even negative prompts) and the injection tiers chosen
 * there; everything is then reported on the held-out split (projects 3–5, odd negative prompts).
 * Progress to stderr; the report (and the constants to paste) to stdout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import type { EvidencePath } from '../../src/core/ranking/relevance.js';
import { UseEmbedder } from '../../src/embed/use-embedder.js';
import type { Clock } from '../../src/ports/clock.js';
import { embedPending } from '../../src/retrieval/embed-pending.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { parseNegatives, projectsOf } from '../inject/corpus.js';
import { parseDataset } from '../retrieval/dataset.js';
import { CachedEmbedder } from '../retrieval/vector-cache.js';
import { auc, fitLogistic, predict, type Sample } from './logistic.js';
import { chooseTiers, featuresOf, type Query, tierOutcomes } from './tiers.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: 'bench/datasets/coding-memories.json' },
    negatives: { type: 'string', default: 'bench/datasets/negative-prompts.json' },
    'tune-conversations': { type: 'string', default: '3' },
    depth: { type: 'string', default: '10' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    /** Writes every recorded query (its hits' evidence and whether each is needed) as JSON. */
    dump: { type: 'string' },
  },
});
const depth = Number(args.depth);
const tuneCount = Number(args['tune-conversations']);

class Fixed implements Clock {
  constructor(private readonly at: number) {}
  now(): Date {
    return new Date(this.at);
  }
}

const now = Date.parse('2026-01-15T12:00:00.000Z');
const dataset = parseDataset(JSON.parse(readFileSync(args.data, 'utf8')) as unknown);
const negatives = parseNegatives(JSON.parse(readFileSync(args.negatives, 'utf8')) as unknown);
const projects = projectsOf(dataset, 'coding', now);
const sentence = new CachedEmbedder(new UseEmbedder(), args['cache-dir']);

const queries: Query[] = [];
for (const [index, project] of projects.entries()) {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-calibrate-'));
  const clock = new Fixed(now);
  const store = await openSqliteStore({ path: join(dir, 'memories.sqlite'), clock });
  const idOf = new Map<string, string>();
  for (const memory of project.memories) {
    const { memory: stored } = await store.remember(
      { content: memory.text, projectKey: project.id, origin: 'user', kind: memory.kind },
      { capturedAt: new Date(memory.at).toISOString() },
    );
    idOf.set(stored.id, memory.turnId);
  }
  await embedPending(store, sentence, { max: Number.MAX_SAFE_INTEGER, batchSize: 256 });
  const tune = index < tuneCount;
  const asked = [
    ...project.questions.map((q) => ({
      id: q.id,
      text: q.question,
      needed: q.evidence,
      negative: false,
    })),
    // Each negative prompt is asked in one project, round robin, split by its position.
    ...negatives.prompts
      .filter((_, i) => i % projects.length === index)
      .map((p) => ({ id: p.id, text: p.prompt, needed: [] as string[], negative: true })),
  ];
  for (const question of asked) {
    for (const path of ['lexical', 'dense'] as EvidencePath[]) {
      const hits = await retrieve(
        { store, clock, ...(path === 'dense' ? { embedder: sentence } : {}) },
        {
          query: question.text,
          scope: { projectKey: project.id, includeGlobal: false },
          limit: depth,
          recordAccess: false,
        },
      );
      const split = question.negative ? negativeSplit(question.id) : tune ? 'tune' : 'held-out';
      queries.push({
        id: `${project.id}:${question.id}`,
        path,
        split,
        negative: question.negative,
        hits: hits.map((hit) => ({
          evidence: hit.evidence,
          needed: question.needed.includes(idOf.get(hit.memory.id) ?? ''),
        })),
      });
    }
  }
  process.stderr.write(`project ${project.id}: ${asked.length} prompts\n`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

function negativeSplit(id: string): 'tune' | 'held-out' {
  const i = negatives.prompts.findIndex((p) => p.id === id);
  return i % 2 === 0 ? 'tune' : 'held-out';
}

if (args.dump !== undefined) writeFileSync(args.dump, JSON.stringify(queries));

const out: string[] = ['# mnemo relevance calibration', ''];
out.push(
  `coding set: ${projects.length} projects (tune 0–${tuneCount - 1}), ${negatives.prompts.length} negative prompts (tune: even positions), top ${depth} hits per prompt`,
  '',
);
for (const path of ['lexical', 'dense'] as EvidencePath[]) {
  const mine = queries.filter((q) => q.path === path);
  const samples = (split: string): Sample[] =>
    mine
      .filter((q) => q.split === split)
      .flatMap((q) =>
        q.hits.map((h) => ({ x: featuresOf(h.evidence, path), y: h.needed ? 1 : 0 })),
      );
  const fit = fitLogistic(samples('tune'));
  const model = toModel(fit.weights, path);
  const scoredWith = (q: Query) => ({
    ...q,
    hits: q.hits.map((h) => ({ ...h, p: predict(fit.weights, featuresOf(h.evidence, path)) })),
  });
  const tune = mine.filter((q) => q.split === 'tune').map(scoredWith);
  const held = mine.filter((q) => q.split === 'held-out').map(scoredWith);
  const tiers = chooseTiers(tune);
  const aucOf = (qs: typeof tune) =>
    auc(qs.flatMap((q) => q.hits.map((h) => ({ p: h.p, y: h.needed ? 1 : 0 }))));
  out.push(
    `## ${path} path (${path === 'lexical' ? 'engine down: word legs only' : 'engine up: with the sentence model'})`,
    '',
  );
  out.push(`model: ${JSON.stringify(model)}`);
  out.push(`tiers: ${JSON.stringify(tiers)}`);
  out.push(
    `AUC tune ${aucOf(tune).toFixed(3)}, held-out ${aucOf(held).toFixed(3)}; log loss tune ${fit.logLoss.toFixed(3)}`,
    '',
  );
  out.push(
    '| split | questions | needed injected | in full | as index line | wrong only | silent | negatives injecting anything |',
  );
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, qs] of [
    ['tune', tune],
    ['held-out', held],
  ] as const) {
    const o = tierOutcomes(qs, tiers);
    const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
    out.push(
      `| ${name} | ${o.questions} | ${pct(o.needed)} | ${pct(o.full)} | ${pct(o.index)} | ${pct(o.wrongOnly)} | ${pct(o.silent)} | ${pct(o.negativeAny)} (${o.negatives}) |`,
    );
  }
  out.push('', 'tune split by index threshold (no full tier):', '');
  out.push(
    '| index ≥ | needed injected | wrong only | negatives injecting |',
    '| --- | --- | --- | --- |',
  );
  for (const t of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]) {
    const o = tierOutcomes(tune, { full: 1, index: t });
    out.push(
      `| ${t} | ${(100 * o.needed).toFixed(1)} % | ${(100 * o.wrongOnly).toFixed(1)} % | ${(100 * o.negativeAny).toFixed(1)} % |`,
    );
  }
  out.push('');
}
process.stdout.write(`${out.join('\n')}\n`);

function toModel(w: readonly number[], path: EvidencePath) {
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    intercept: round(w[0]!),
    coverage: round(w[1]!),
    similarityZ: path === 'lexical' ? 0 : round(w[6]!),
    lead: round(w[2]!),
    concept: round(w[3]!),
    rank: round(w[4]!),
    bestCoverage: round(w[5]!),
  };
}
