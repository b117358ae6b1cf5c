/**
 * The parameter sweep behind recall's constants (`src/core/ranking/recall-fusion.ts`, `bm25f.ts`):
 * `npm run bench:sweep -- --data <locomo10.json> [--conversations 0-4] [--providers use,words]
 *  --set k1=0.9,1.2 --set context=0.25,0.5 ...`. The stores are built once; every combination of the
 * `--set` values then runs the production `retrieve()` over every question with that tuning (strict
 * protocol), so what is measured is exactly what ships. Keys: k1, b, context (BM25F context weight:
 * the index's column weight), lines (BM25F weight of each context line by position, `0.5/0.5/0.3/0.1`),
 * contextRef (body length in terms up to which the context keeps its weight, or none), lexicalSpread
 * (the lexical leg's smallest z-score deviation, BM25 points), lexical, vector, words, identifierPlain,
 * session, entity, lexicalDepth, lexicalPool, fusion (score|rrf), normalisation (zscore|minmax), and
 * depth (the request's candidate depth per leg; default max(30, 3 × limit)).
 *
 * Tuning happens on conversations 0–4 only: held-out conversations are refused unless
 * `--allow-held-out` is given, so that a sweep cannot quietly choose on them.
 */
import { parseArgs } from 'node:util';

import { RECALL_TUNING, type RecallTuning } from '../../src/core/ranking/recall-fusion.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { buildConversationStore, corpusTurns } from './conversation-store.js';
import { loadDataset } from './load-dataset.js';
import { DEPTH, firstHitRank, summarise } from './metrics.js';
import { openProviders, openWordTable } from './providers.js';
import { fixed3, table } from './report.js';
import { CachedEmbedder } from './vector-cache.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    dataset: { type: 'string', default: 'locomo' },
    conversations: { type: 'string', default: '0-4' },
    providers: { type: 'string', default: '' },
    set: { type: 'string', multiple: true, default: [] },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'allow-held-out': { type: 'boolean', default: false },
  },
});
if (args.data === undefined) {
  process.stderr.write(
    'Usage: npm run bench:sweep -- --data <file> [--dataset locomo|generic] [--conversations 0-4]\n' +
      '  [--providers use,words] --set key=v1,v2 ...\n',
  );
  process.exit(2);
}
const [from, to] = args.conversations.split('-').map(Number) as [number, number | undefined];
const last = to ?? from;
if (args.dataset === 'locomo' && last > 4 && !args['allow-held-out']) {
  throw new Error('Conversations 5-9 are held out; sweep 0-4 (or pass --allow-held-out to check).');
}
const { dataset } = loadDataset(args.dataset, args.data);
const names = args.providers.split(',').filter(Boolean);
const providers = await openProviders(
  names.filter((n) => n !== 'words'),
  {},
);
if (providers.length > 1) throw new Error('Sweep one sentence model at a time (plus words).');
const sentence =
  providers[0] === undefined
    ? undefined
    : new CachedEmbedder(providers[0].embedder, args['cache-dir']);
const wordTable = names.includes('words') ? await openWordTable(args['cache-dir']) : undefined;

const grid: [string, string[]][] = args.set.map((spec) => {
  const [key, values] = spec.split('=') as [string, string | undefined];
  if (values === undefined) throw new Error(`--set ${spec}: expected key=v1,v2`);
  return [key, values.split(',')];
});

function tuningOf(choice: Record<string, string>): RecallTuning {
  const t: RecallTuning = structuredClone(RECALL_TUNING);
  for (const [key, raw] of Object.entries(choice)) {
    const n = Number(raw);
    if (key === 'depth') continue; // a request setting, not a tuning one
    if (key === 'k1') t.bm25f = { ...t.bm25f, k1: n };
    else if (key === 'b') t.bm25f = { ...t.bm25f, b: n };
    else if (key === 'context')
      t.bm25f = { ...t.bm25f, weights: { ...t.bm25f.weights, context: n } };
    else if (key === 'lines') t.bm25f = { ...t.bm25f, contextLines: raw.split('/').map(Number) };
    else if (key === 'contextRef')
      t.bm25f = { ...t.bm25f, ...(raw === 'none' ? {} : { contextReference: Number(raw) }) };
    else if (key === 'lexicalSpread')
      t.smallPool = { ...t.smallPool, lexical: { ...t.smallPool['lexical'], minSpread: n } };
    else if (key === 'fusion') t.fusion = raw as RecallTuning['fusion'];
    else if (key === 'normalisation') t.normalisation = raw as RecallTuning['normalisation'];
    else if (
      key === 'session' ||
      key === 'entity' ||
      key === 'lexicalDepth' ||
      key === 'lexicalPool'
    )
      t[key] = n;
    else if (key in t.weights || key === 'vector') (t.weights as Record<string, number>)[key] = n;
    else throw new Error(`Unknown sweep key "${key}".`);
  }
  return t;
}

const choices: Record<string, string>[] = grid.reduce<Record<string, string>[]>(
  (acc, [key, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [key]: v }))),
  [{}],
);

interface Prepared {
  built: Awaited<ReturnType<typeof buildConversationStore>>;
  questions: { question: string; evidence: string[]; category: string }[];
}
const prepared: Prepared[] = [];
for (let index = from; index <= last; index++) {
  const conversation = dataset.conversations[index]!;
  const turns = corpusTurns(conversation, {});
  const built = await buildConversationStore(turns, `sweep/${conversation.id}`, {
    ...(sentence === undefined ? {} : { sentence }),
    ...(wordTable === undefined ? {} : { words: wordTable }),
  });
  prepared.push({ built, questions: conversation.questions });
  process.stderr.write(`conversation ${index} ready\n`);
}

const rows: string[][] = [];
for (const choice of choices) {
  const tuning = tuningOf(choice);
  const ranks: (number | null)[] = [];
  const adversarial: (number | null)[] = [];
  for (const { built, questions } of prepared) {
    for (const q of questions) {
      const hits = await retrieve(
        {
          store: built.store,
          clock: built.clock,
          embedder: sentence,
          wordEmbedder: built.wordEmbedder,
          tuning,
        },
        {
          query: q.question,
          scope: built.scope,
          limit: DEPTH,
          recordAccess: false,
          ...(choice['depth'] === undefined ? {} : { depth: Number(choice['depth']) }),
        },
      );
      const rank = firstHitRank(
        'strict',
        hits.map((h) => built.turnsOf.get(h.memory.id) ?? []),
        q.evidence,
        () => undefined,
      );
      ranks.push(rank);
      if (q.category === '5') adversarial.push(rank);
    }
  }
  const m = summarise(ranks);
  const a = summarise(adversarial);
  const label =
    Object.entries(choice)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || 'defaults';
  rows.push([label, fixed3(m.r1), fixed3(m.r5), fixed3(m.r10), fixed3(m.mrr10), fixed3(a.mrr10)]);
  process.stderr.write(`${label}: R@10 ${fixed3(m.r10)} MRR ${fixed3(m.mrr10)}\n`);
}
for (const { built } of prepared) await built.close();
process.stdout.write(
  `# sweep: ${dataset.name} conversations ${from}-${last}, ${prepared.reduce((n, p) => n + p.questions.length, 0)} questions, strict, retrieve() with ${
    [sentence?.model, wordTable === undefined ? undefined : 'words'].filter(Boolean).join(' + ') ||
    'no embedder'
  }\n\n${table(['setting', 'R@1', 'R@5', 'R@10', 'MRR@10', 'MRR cat 5'], rows)}\n`,
);
