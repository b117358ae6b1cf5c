/**
 * Fusion parameter sweep, the tool behind the constants in `src/core/ranking/recall-fusion.ts` and the
 * recency span in `score.ts`: `npm run bench:sweep -- --data <locomo10.json> [--conversations 0-4]`.
 * Each question's legs are fetched once from the real stores (deep enough for every depth swept), then
 * every combination of RRF k, vector weight, plain-word identifier weight, recency span and depth is
 * fused with core's `fuseRankings` and scored with core's `recencyFactor` (trust and heat are constant
 * in this corpus), so a grid of hundreds of settings costs one benchmark pass.
 *
 * Tuning happens on conversations 0–4 only. Held-out conversations are refused unless
 * `--allow-held-out` is given, so that a sweep cannot quietly choose on them.
 */
import { parseArgs } from 'node:util';

import { recencyFactor } from '../../src/core/ranking/recency.js';
import { fuseRankings, type RankedList } from '../../src/core/ranking/rrf.js';
import { extractCodeTerms, queryTerms } from '../../src/core/text/identifiers.js';
import { buildConversationStore, corpusTurns } from './conversation-store.js';
import { loadDataset } from './load-dataset.js';
import { firstHitRank, summarise } from './metrics.js';
import { openProviders } from './providers.js';
import { fixed3, table } from './report.js';
import { CachedEmbedder } from './vector-cache.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    conversations: { type: 'string', default: '0-4' },
    'context-before': { type: 'string', default: '1' },
    providers: { type: 'string', default: 'hash,use' },
    k: { type: 'string', default: '10,60' },
    'vector-weights': { type: 'string', default: '0.25,0.5,1' },
    'identifier-weights': { type: 'string', default: '0,0.25,0.5' },
    'recency-spans': { type: 'string', default: '0.01,0.05' },
    depths: { type: 'string', default: '30,50' },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'allow-held-out': { type: 'boolean', default: false },
  },
});
if (args.data === undefined) {
  process.stderr.write(
    'Usage: npm run bench:sweep -- --data <locomo10.json> [--conversations 0-4]\n',
  );
  process.exit(2);
}
const list = (name: keyof typeof args): number[] => String(args[name]).split(',').map(Number);
const [from, to] = args.conversations.split('-').map(Number) as [number, number | undefined];
const last = to ?? from;
if (last > 4 && !args['allow-held-out']) {
  throw new Error('Conversations 5-9 are held out; sweep 0-4 (or pass --allow-held-out to check).');
}
const depths = list('depths');
const fetchDepth = Math.max(...depths);
const { dataset } = loadDataset('locomo', args.data);
const providers = await openProviders(args.providers.split(',').filter(Boolean), {});
const embedders = providers.map((p) => ({
  label: p.label,
  cached: new CachedEmbedder(p.embedder, args['cache-dir']),
}));

interface Question {
  evidence: Set<string>;
  now: number;
  lexical: string[];
  identifier: string[];
  code: boolean;
  vector: Map<string, string[]>;
}
const questions: Question[] = [];
const createdAt = new Map<string, string>();
/** Turns each memory (named by its first turn) stands for: identical texts are stored once. */
const turnsOf = new Map<string, string[]>();
for (let index = from; index <= last; index++) {
  const conversation = dataset.conversations[index]!;
  const turns = corpusTurns(conversation, { contextBefore: Number(args['context-before']) });
  // Turn ids repeat across conversations (`D1:3`), so every key carries the conversation index.
  const named = (turn: string): string => `${index}/${turn}`;
  for (const turn of turns) createdAt.set(named(turn.id), new Date(turn.at).toISOString());
  const stores = [];
  for (const embedder of embedders.length > 0 ? embedders : [undefined]) {
    const cached = embedder?.cached;
    const vectors = cached === undefined ? [] : await cached.embed(turns.map((t) => t.text));
    const byModel = cached === undefined ? new Map() : new Map([[cached.model, vectors]]);
    const built = await buildConversationStore(turns, byModel, 'sweep');
    stores.push({ label: embedder?.label, cached, built });
  }
  const first = stores[0]!.built;
  for (const ids of first.turnsOf.values()) turnsOf.set(named(ids[0]!), ids.map(named));
  // Ids differ per store; a memory is named by the first turn it stands for.
  const key = (built: typeof first, id: string): string => named(built.turnsOf.get(id)![0]!);
  const options = { scope: first.scope, limit: fetchDepth };
  for (const q of conversation.questions) {
    const terms = queryTerms(q.question);
    const lexical = await first.store.searchLexical(q.question, options);
    const identifier = terms.length > 0 ? await first.store.searchTerms(terms, options) : [];
    const vector = new Map<string, string[]>();
    for (const { label, cached, built } of stores) {
      if (cached === undefined || label === undefined) continue;
      const [values] = await cached.embed([q.question]);
      const hits = await built.store.searchVector(
        { model: cached.model, values: values! },
        options,
      );
      vector.set(
        label,
        hits.map((h) => key(built, h.id)),
      );
    }
    questions.push({
      evidence: new Set(q.evidence.map(named)),
      now: first.clock.now().getTime(),
      lexical: lexical.map((h) => key(first, h.id)),
      identifier: identifier.map((h) => key(first, h.id)),
      code: extractCodeTerms(q.question).length > 0,
      vector,
    });
  }
  for (const { built } of stores) await built.close();
  process.stderr.write(`conversation ${index} ready\n`);
}

interface Setting {
  vector: string;
  k: number;
  vectorWeight: number;
  identifierWeight: number;
  recencySpan: number;
  depth: number;
}
function evaluate(s: Setting) {
  const ranks = questions.map((q) => {
    const lists: RankedList[] = [
      { signal: 'lexical', ids: q.lexical.slice(0, s.depth) },
      {
        signal: 'identifier',
        ids: q.identifier.slice(0, s.depth),
        weight: q.code ? 1 : s.identifierWeight,
      },
    ];
    const vector = q.vector.get(s.vector);
    if (vector !== undefined) {
      lists.push({ signal: 'vector', ids: vector.slice(0, s.depth), weight: s.vectorWeight });
    }
    const order = fuseRankings(lists, { k: s.k })
      .map((hit) => {
        const memory = { createdAt: createdAt.get(hit.id)!, pinned: false };
        const recency = recencyFactor(memory, q.now, { floor: 1 - s.recencySpan });
        return { id: hit.id, score: hit.score * recency };
      })
      .sort((a, b) => b.score - a.score)
      .map((hit) => turnsOf.get(hit.id) ?? [hit.id]);
    return firstHitRank('strict', order, [...q.evidence], () => undefined);
  });
  return summarise(ranks);
}

const rows: string[][] = [];
for (const vector of ['none', ...embedders.map((e) => e.label)]) {
  for (const k of list('k'))
    for (const vectorWeight of vector === 'none' ? [0] : list('vector-weights'))
      for (const identifierWeight of list('identifier-weights'))
        for (const recencySpan of list('recency-spans'))
          for (const depth of depths) {
            const setting = { vector, k, vectorWeight, identifierWeight, recencySpan, depth };
            const m = evaluate(setting);
            rows.push([
              `${vector} k${k} vec${vectorWeight} id${identifierWeight} rec${recencySpan} d${depth}`,
              fixed3(m.r1),
              fixed3(m.r10),
              fixed3(m.mrr10),
            ]);
          }
}
process.stdout.write(
  `# fusion sweep: conversations ${from}-${last}, ${questions.length} questions, strict, ` +
    `context before ${args['context-before']}\n\n${table(['setting', 'R@1', 'R@10', 'MRR@10'], rows)}\n`,
);
