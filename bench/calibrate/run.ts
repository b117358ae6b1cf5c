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
 *
 * `--dialog <locomo10.json>` adds LoCoMo conversations as stores of their own, as long turns by default
 * (consecutive turns merged into 180–400-word memories, bench/retrieval/long-turns.ts; `--dialog-turns`
 * keeps one memory per turn), each memory written with its session: `--dialog-tune` conversations join
 * the tuning split, `--dialog-held` the held-out one, `--dialog-questions` per conversation (stratified
 * over the categories, adversarial ones left out). The negative prompts are asked in the dialog stores
 * too (round robin, as in the coding projects), so a model that reads long memories as relevant for
 * their length alone shows it there. Progress to stderr; the report (and the constants to paste) to
 * stdout.
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
import {
  type BenchProject,
  parseNegatives,
  projectsOf,
  stratifiedConversations,
} from '../inject/corpus.js';
import { type BenchDataset, parseDataset, selectConversations } from '../retrieval/dataset.js';
import { convertLocomo } from '../retrieval/locomo.js';
import { longTurnDataset } from '../retrieval/long-turns.js';
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
    dialog: { type: 'string' },
    'dialog-turns': { type: 'boolean', default: false },
    'dialog-tune': { type: 'string', default: '0-4' },
    'dialog-held': { type: 'string', default: '5-9' },
    'dialog-questions': { type: 'string', default: '20' },
    /** The paths whose models are also fit on the dialog stores (default none: both only reported there). */
    'dialog-fit': { type: 'string', default: '' },
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

/** The dialog stores (`--dialog`), each with its split. */
function dialogProjects(): { project: BenchProject; split: 'tune' | 'held-out' }[] {
  if (args.dialog === undefined) return [];
  const converted = convertLocomo(JSON.parse(readFileSync(args.dialog, 'utf8')) as unknown).dataset;
  const source: BenchDataset = args['dialog-turns']
    ? converted
    : longTurnDataset(converted).dataset;
  const order = source.categories.filter((c) => c.adversarial !== true).map((c) => c.id);
  const per = Number(args['dialog-questions']);
  const count = source.conversations.length;
  const split = (spec: string, name: 'tune' | 'held-out') =>
    projectsOf(
      {
        ...source,
        conversations: stratifiedConversations(
          source,
          selectConversations(spec, count),
          per,
          order,
        ),
      },
      'dialog',
      now,
    ).map((project) => ({ project, split: name }));
  return [...split(args['dialog-tune'], 'tune'), ...split(args['dialog-held'], 'held-out')];
}

type Corpus = 'coding' | 'dialog';
interface Store {
  project: BenchProject;
  corpus: Corpus;
  split: 'tune' | 'held-out';
}
const stores: Store[] = [
  ...projects.map(
    (project, index): Store => ({
      project,
      corpus: 'coding',
      split: index < tuneCount ? 'tune' : 'held-out',
    }),
  ),
  ...dialogProjects().map((d): Store => ({ ...d, corpus: 'dialog' })),
];

const queries: (Query & { corpus: Corpus })[] = [];
for (const { project, corpus, split: storeSplit } of stores) {
  const ofCorpus = stores.filter((s) => s.corpus === corpus);
  const place = ofCorpus.findIndex((s) => s.project === project);
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-calibrate-'));
  const clock = new Fixed(now);
  const store = await openSqliteStore({ path: join(dir, 'memories.sqlite'), clock });
  const idOf = new Map<string, string>();
  for (const memory of project.memories) {
    const { memory: stored } = await store.remember(
      {
        content: memory.text,
        projectKey: project.id,
        origin: 'user',
        kind: memory.kind,
        // Dialog turns are one session's captures: the store derives their context from neighbours.
        ...(corpus === 'dialog' ? { sessionId: memory.sessionId } : {}),
      },
      { capturedAt: new Date(memory.at).toISOString() },
    );
    idOf.set(stored.id, memory.turnId);
  }
  await embedPending(store, sentence, { max: Number.MAX_SAFE_INTEGER, batchSize: 256 });
  const asked = [
    ...project.questions.map((q) => ({
      id: q.id,
      text: q.question,
      needed: q.evidence,
      negative: false,
    })),
    // Each negative prompt is asked in one store of each corpus, round robin, split by its position.
    ...negatives.prompts
      .filter((_, i) => i % ofCorpus.length === place)
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
      const split = question.negative ? negativeSplit(question.id) : storeSplit;
      queries.push({
        id: `${project.id}:${question.id}`,
        corpus,
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
if (args.dialog !== undefined) {
  const dialogs = stores.filter((s) => s.corpus === 'dialog');
  out.push(
    `dialog stores: LoCoMo ${args['dialog-turns'] ? 'turns' : 'long turns'}, conversations ${args['dialog-tune']} tune, ${args['dialog-held']} held out, ${dialogs.map((d) => d.project.questions.length).join('/')} questions, ${dialogs.map((d) => d.project.memories.length).join('/')} memories`,
    '',
  );
}
for (const path of ['lexical', 'dense'] as EvidencePath[]) {
  const mine = queries.filter((q) => q.path === path);
  const fitsDialog = args['dialog-fit'].split(',').includes(path);
  // The model is fit, and its tiers chosen, on these; every query is reported.
  const fitted = (q: { corpus: Corpus }) => fitsDialog || q.corpus === 'coding';
  const samples = (split: string): Sample[] =>
    mine
      .filter((q) => q.split === split && fitted(q))
      .flatMap((q) =>
        q.hits.map((h) => ({ x: featuresOf(h.evidence, path), y: h.needed ? 1 : 0 })),
      );
  const fit = fitLogistic(samples('tune'));
  const model = toModel(fit.weights, path);
  const scoredWith = (q: Query & { corpus: Corpus }) => ({
    ...q,
    hits: q.hits.map((h) => ({ ...h, p: predict(fit.weights, featuresOf(h.evidence, path)) })),
  });
  const tune = mine.filter((q) => q.split === 'tune').map(scoredWith);
  const held = mine.filter((q) => q.split === 'held-out').map(scoredWith);
  const tiers = chooseTiers(tune.filter(fitted));
  const aucOf = (qs: typeof tune) =>
    auc(qs.flatMap((q) => q.hits.map((h) => ({ p: h.p, y: h.needed ? 1 : 0 }))));
  out.push(
    `## ${path} path (${path === 'lexical' ? 'engine down: word legs only' : 'engine up: with the sentence model'})`,
    '',
  );
  out.push(`model: ${JSON.stringify(model)}`);
  if (args.dialog !== undefined) {
    out.push(`fit on: ${fitsDialog ? 'coding and dialog stores' : 'coding stores only'}`);
  }
  out.push(`tiers: ${JSON.stringify(tiers)}`);
  out.push(
    `AUC tune ${aucOf(tune).toFixed(3)}, held-out ${aucOf(held).toFixed(3)}; log loss tune ${fit.logLoss.toFixed(3)}`,
    '',
  );
  out.push(
    '| split | questions | needed injected | in full | as index line | wrong only | silent | negatives injecting anything |',
  );
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const byCorpus = (qs: typeof tune, corpus: Corpus) => qs.filter((q) => q.corpus === corpus);
  const rows: [string, typeof tune][] =
    args.dialog === undefined
      ? [
          ['tune', tune],
          ['held-out', held],
        ]
      : [
          ['tune', tune],
          ['tune, coding', byCorpus(tune, 'coding')],
          ['tune, dialog', byCorpus(tune, 'dialog')],
          ['held-out', held],
          ['held-out, coding', byCorpus(held, 'coding')],
          ['held-out, dialog', byCorpus(held, 'dialog')],
        ];
  for (const [name, qs] of rows) {
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
