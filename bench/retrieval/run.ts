/**
 * The retrieval benchmark: `npm run bench:retrieval -- --dataset locomo --data <path> [--json out.json]`.
 * Strict protocol first (one memory per turn, hit = an evidence turn), session protocol for comparison.
 * Every arm runs on the same fresh per-conversation SQLite stores in the same process; tables go to
 * stdout, progress to stderr. See docs/benchmarks.md for the protocol and the recorded results.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import { RECALL_TUNING, type RecallTuning } from '../../src/core/ranking/recall-fusion.js';
import {
  type Arm,
  bm25Arm,
  DEFAULT_FUSION,
  legsRrfArm,
  lexicalArm,
  retrieveArm,
  vectorArm,
  wordsArm,
} from './arms.js';
import { Bm25Index } from './bm25.js';
import {
  buildConversationStore,
  type ConversationStore,
  corpusTurns,
} from './conversation-store.js';
import { selectConversations } from './dataset.js';
import { loadDataset } from './load-dataset.js';
import {
  breakdown,
  type BreakdownRow,
  firstHitRank,
  type Outcome,
  percentile,
  type Protocol,
  PROTOCOLS,
} from './metrics.js';
import { openProviders, openWordTable } from './providers.js';
import { ms, renderReport } from './report.js';
import { CachedEmbedder } from './vector-cache.js';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string' },
    data: { type: 'string' },
    json: { type: 'string' },
    providers: { type: 'string', default: 'use,words' },
    'model-dir': { type: 'string' },
    'model-id': { type: 'string' },
    // Memories are the turns themselves; the store derives their context from the session's neighbours.
    // n > 0 also copies n previous turns into the memory text (the protocol before schema v5).
    'context-before': { type: 'string', default: '0' },
    'context-after': { type: 'string', default: '0' },
    'no-captions': { type: 'boolean', default: false },
    conversations: { type: 'string' },
    'tune-conversations': { type: 'string', default: '5' },
    'fusion-depth': { type: 'string', default: String(DEFAULT_FUSION.depth) },
    'lexical-weight': { type: 'string', default: String(DEFAULT_FUSION.lexicalWeight) },
    'vector-weight': { type: 'string', default: String(DEFAULT_FUSION.vectorWeight) },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'latency-samples': { type: 'string', default: '50' },
    'rerank-dir': { type: 'string' },
    'rerank-id': { type: 'string' },
    'legs-rrf': { type: 'boolean', default: false },
    'same-time': { type: 'boolean', default: false },
  },
});

if (args.dataset === undefined || args.data === undefined) {
  process.stderr.write(
    'Usage: npm run bench:retrieval -- --dataset locomo|locomo-long|generic --data <file> [--json out.json]\n' +
      '  [--providers hash,use,onnx] [--model-dir <dir> --model-id <id>] [--context-before 1]\n' +
      '  [--context-after n] [--no-captions] [--conversations 0-4] [--tune-conversations 5]\n' +
      '  [--rerank-dir <dir> --rerank-id <id>] [--cache-dir .bench-cache] [--latency-samples 50]\n' +
      '  [--legs-rrf --fusion-depth 50 --lexical-weight 1 --vector-weight 1] [--same-time]\n',
  );
  process.exit(2);
}

const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const int = (name: keyof typeof args): number => {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0.`);
  return value;
};

const { dataset, conversion, longTurns } = loadDataset(args.dataset, args.data);
const selected = selectConversations(args.conversations, dataset.conversations.length);
const textOptions = {
  contextBefore: int('context-before'),
  contextAfter: int('context-after'),
  captions: !args['no-captions'],
};
const fusion = {
  depth: int('fusion-depth'),
  lexicalWeight: int('lexical-weight'),
  vectorWeight: int('vector-weight'),
};
const tuneConversations = int('tune-conversations');

const providerNames = args.providers
  .split(',')
  .map((p) => p.trim())
  .filter((p) => p.length > 0);
const providers = await openProviders(
  providerNames.filter((p) => p !== 'words'),
  { modelDir: args['model-dir'], modelId: args['model-id'] },
);
const embedders = providers.map((p) => ({
  ...p,
  cached: new CachedEmbedder(p.embedder, args['cache-dir']),
}));
// The static word-vector leg (`words` in --providers): stored beside each sentence model's vectors.
const wordTable = providerNames.includes('words')
  ? await openWordTable(args['cache-dir'])
  : undefined;
const words = wordTable !== undefined;
const rrf: RecallTuning = { ...RECALL_TUNING, fusion: 'rrf' };
const noEntity: RecallTuning = { ...RECALL_TUNING, entity: 0 };

const reranker = await openReranker(args['rerank-dir'], args['rerank-id']);
const arms: Arm[] = [
  bm25Arm,
  lexicalArm('native'),
  lexicalArm('bm25f'),
  retrieveArm({
    name: 'retrieve:no-embedder',
    description:
      'retrieve() without an embedder (lexical + identifier legs, priors, factors), as hooks run it',
  }),
  retrieveArm({
    name: 'retrieve:no-embedder-rrf',
    description: 'the hook path fused with weighted RRF instead of score fusion (comparison)',
    tuning: rrf,
  }),
  ...(words
    ? [
        wordsArm,
        retrieveArm({
          name: 'fused:words',
          description: 'retrieve() with the words leg only (no sentence model)',
          words: true,
        }),
      ]
    : []),
  ...embedders.map((p) => vectorArm(p.embedder.model, p.label)),
  ...embedders.flatMap(({ label, cached }) => [
    retrieveArm({
      name: `fused:${label}${words ? '+words' : ''}`,
      description: `retrieve() with ${cached.model}${words ? ' and the words leg' : ''}: score fusion, priors, recency/heat/trust (what \`mnemo recall\` runs)`,
      embedder: cached,
      words,
    }),
    retrieveArm({
      name: `fused-rrf:${label}${words ? '+words' : ''}`,
      description: `the same legs fused with weighted RRF (k 10) instead of score fusion`,
      embedder: cached,
      words,
      tuning: rrf,
    }),
    retrieveArm({
      name: `fused:${label}${words ? '+words' : ''}-no-entity`,
      description: `the fused arm without the entity prior (what the prior does per category)`,
      embedder: cached,
      words,
      tuning: noEntity,
    }),
  ]),
  ...(reranker === undefined
    ? []
    : embedders.map(({ label, cached }) =>
        retrieveArm({
          name: `fused+rerank:${label}`,
          description: `retrieve() with ${cached.model} and cross-encoder ${reranker.model}`,
          embedder: cached,
          reranker,
          words,
        }),
      )),
  ...(args['legs-rrf'] ? embedders.map((p) => legsRrfArm(p.embedder.model, p.label, fusion)) : []),
];

const corpora = selected.map((index) => ({
  index,
  conversation: dataset.conversations[index]!,
  turns: corpusTurns(dataset.conversations[index]!, textOptions, { sameTime: args['same-time'] }),
}));
const turnCount = corpora.reduce((sum, c) => sum + c.turns.length, 0);
const questionCount = corpora.reduce((sum, c) => sum + c.conversation.questions.length, 0);
progress(
  `${dataset.name}: ${corpora.length} conversations, ${turnCount} turns, ${questionCount} questions`,
);

// Query vectors first (through the cache), so that search timings never include them; memory vectors
// are filled per store by the production embedPending (content plus context vector).
const questionVectors = new Map<string, Float32Array[]>();
for (const { cached } of embedders) {
  const questions = corpora.flatMap((c) => c.conversation.questions.map((q) => q.question));
  const began = performance.now();
  questionVectors.set(cached.model, await cached.embed(questions));
  progress(`${cached.model}: question vectors ready in ${ms(performance.now() - began)} ms`);
}

const outcomes = new Map(
  arms.map((arm) => [arm.name, { strict: [] as Outcome[], session: [] as Outcome[] }]),
);
const latencies = new Map(arms.map((arm) => [arm.name, [] as number[]]));
let writeMs = 0;
let embedMs = 0;
let writes = 0;
let bm25BuildMs = 0;
let questionOffset = 0;
for (const { index, conversation, turns } of corpora) {
  // One store per sentence model (a memory holds one sentence vector), each with the word vectors.
  const models = embedders.map((e) => e.cached);
  const stores = new Map<string, ConversationStore>();
  for (const model of models.length === 0 ? [undefined] : models) {
    const built = await buildConversationStore(turns, `bench/${conversation.id}`, {
      ...(model === undefined ? {} : { sentence: model }),
      ...(wordTable === undefined ? {} : { words: wordTable }),
    });
    writeMs += built.writeMs;
    embedMs += built.embedMs;
    writes += turns.length;
    stores.set(model?.model ?? '', built);
    progress(
      `  store ${model?.model ?? 'lexical'}: written ${ms(built.writeMs)} ms, vectors ${ms(built.embedMs)} ms`,
    );
  }
  const first = [...stores.values()][0]!;
  const storeFor = (model?: string): ConversationStore =>
    (model === undefined ? undefined : stores.get(model)) ?? first;
  const bm25Began = performance.now();
  const bm25 = new Bm25Index(turns.map((t) => t.text));
  bm25BuildMs += performance.now() - bm25Began;
  const turnIds = turns.map((t) => t.id);
  const sessionOf = new Map(turns.map((t) => [t.id, t.sessionId]));
  try {
    for (const [qIndex, question] of conversation.questions.entries()) {
      const queryVectors = new Map(
        [...questionVectors].map(([model, all]) => [model, all[questionOffset + qIndex]!]),
      );
      for (const arm of arms) {
        const began = performance.now();
        const retrieved = await arm.search(question.question, {
          storeFor,
          bm25,
          turnIds,
          queryVectors,
        });
        latencies.get(arm.name)!.push(performance.now() - began);
        for (const protocol of PROTOCOLS) {
          const rank = firstHitRank(protocol, retrieved, question.evidence, (t) =>
            sessionOf.get(t),
          );
          const list = outcomes.get(arm.name)![protocol];
          list.push({ conversation: index, category: question.category, rank });
        }
      }
    }
  } finally {
    for (const built of stores.values()) await built.close();
  }
  questionOffset += conversation.questions.length;
  progress(
    `conversation ${index} (${conversation.id}): ${conversation.questions.length} questions done`,
  );
}

// Query embedding latency: single questions, uncached, after a warm-up call (a resident engine is warm).
const sampleSize = int('latency-samples');
const allQuestions = corpora.flatMap((c) => c.conversation.questions.map((q) => q.question));
const sample = allQuestions
  .filter((_, i) => i % Math.max(1, Math.floor(allQuestions.length / sampleSize)) === 0)
  .slice(0, sampleSize);
const queryEmbedding = new Map<string, { p50: number; p95: number; n: number }>();
for (const { embedder } of embedders) {
  await embedder.embed(['warm-up']);
  const times: number[] = [];
  for (const text of sample) {
    const began = performance.now();
    await embedder.embed([text]);
    times.push(performance.now() - began);
  }
  queryEmbedding.set(embedder.model, {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    n: times.length,
  });
}

const results = arms.map((arm) => {
  const rows = Object.fromEntries(
    PROTOCOLS.map((protocol) => [
      protocol,
      breakdown(
        outcomes.get(arm.name)![protocol],
        dataset.categories,
        tuneConversations,
        dataset.conversations.length,
      ),
    ]),
  ) as Record<Protocol, BreakdownRow[]>;
  const times = latencies.get(arm.name)!;
  const embed = arm.model === undefined ? undefined : queryEmbedding.get(arm.model);
  return {
    name: arm.name,
    description: arm.description,
    rows,
    latencyMs: { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length },
    queryEmbeddingMs: embed,
  };
});

process.stdout.write(
  renderReport({
    title: dataset.name,
    header: [
      `conversations ${corpora.map((c) => c.index).join(',')} · turns ${turnCount} · questions ${questionCount}` +
        (conversion === undefined
          ? ''
          : ` (source ${conversion.sourceQuestions}, excluded ${conversion.excluded.length} without usable evidence, ${conversion.repairs.length} evidence strings repaired)`),
      `memory text: [session date] speaker: text${textOptions.captions ? ' [shares a photo: caption]' : ''}` +
        `; neighbour context before ${textOptions.contextBefore}, after ${textOptions.contextAfter}` +
        `; recall never records access (every question sees the same store state)` +
        (args['same-time'] ? '; ABLATION: every turn stored at one instant (recency neutral)' : ''),
      ...(longTurns === undefined
        ? []
        : [
            `long turns: ${longTurns.sourceTurns} source turns merged into ${longTurns.memories} memories of ` +
              `${longTurns.words.min}-${longTurns.words.max} words (median ${longTurns.words.median}; ` +
              `${longTurns.outOfRange} outside 180-400: a short session, or a tail that fitted nowhere)`,
          ]),
    ],
    results,
    ingest: [
      ['store writes (row, lexical index, context, audit), all stores', writes, writeMs],
      ['vectors filled by embedPending (sentence + words, cache hits incl.)', writes, embedMs],
      ['bm25 index build (floor)', turnCount, bm25BuildMs],
      ...embedders.map(
        ({ cached }) =>
          [
            `embed ${cached.model} (cache misses only)`,
            cached.stats.embedded,
            cached.stats.embedMs,
          ] as const,
      ),
    ],
    queryEmbedding,
  }),
);

if (args.json !== undefined) {
  writeFileSync(
    args.json,
    `${JSON.stringify(
      {
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model ?? null,
          ramGb: Math.round(totalmem() / 2 ** 30),
          node: process.version,
        },
        dataset: {
          name: dataset.name,
          conversations: corpora.map((c) => c.index),
          turns: turnCount,
          questions: questionCount,
          conversion,
          longTurns,
        },
        options: { textOptions, fusion, tuneConversations, providers: args.providers },
        arms: results,
        ingest: {
          storeWriteMs: writeMs,
          bm25BuildMs,
          embedding: embedders.map(({ cached }) => ({ model: cached.model, ...cached.stats })),
        },
        queryEmbedding: Object.fromEntries(queryEmbedding),
      },
      null,
      2,
    )}\n`,
  );
  progress(`wrote ${args.json}`);
}

async function openReranker(dir: string | undefined, id: string | undefined) {
  if (dir === undefined) return undefined;
  const { openOnnxReranker } = await import('../../src/embed/onnx-reranker.js');
  const reranker = openOnnxReranker(id ?? basename(dir), dir);
  if (reranker === undefined)
    throw new Error(`--rerank-dir ${dir} is not a complete model directory.`);
  return reranker;
}
