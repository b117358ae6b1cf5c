import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

import { stalenessFrom } from '../../anchors/check-staleness.js';
import { recallBudget } from '../../anchors/verify-anchors.js';
import type { App } from '../../app/open-app.js';
import { isStale } from '../../core/anchors/staleness.js';
import { isMemoryError, MemoryError } from '../../core/errors.js';
import type { MemoryKind } from '../../core/memory.js';
import { evidencePath, relevanceFloor } from '../../core/ranking/relevance.js';
import { demoteStale } from '../../core/ranking/stale-rank.js';
import { renderMemories } from '../../core/render/render-memories.js';
import { toRenderItem } from '../../mcp/render-for-model.js';
import type { Embedder } from '../../ports/embedder.js';
import { embedPending } from '../../retrieval/embed-pending.js';
import { type RankedHit, retrieveDetailed, type RetrieveReport } from '../../retrieval/retrieve.js';
import type { Scope } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { parseDateOption } from '../date-option.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

export interface RecallCliOptions {
  limit?: number;
  project?: string;
  json?: boolean;
  context?: boolean;
  explain?: boolean;
  kind?: MemoryKind[];
  tag?: string[];
  origin?: string[];
  since?: string;
  until?: string;
  diverse?: boolean;
}

/**
 * Unembedded in-scope memories that one recall embeds before searching (oldest first), so the vector leg
 * sees recent captures without a resident engine. 64 short memories cost about half a second with USE
 * lite on two cores; a larger backlog is `mnemo reembed`'s job.
 */
export const RECALL_CATCH_UP_LIMIT = 64;
export const RECALL_CATCH_UP_BATCH = 32;
/** Word vectors a recall catches up: thousands a second, so a bigger backlog than the sentence model's. */
export const RECALL_WORDS_CATCH_UP_LIMIT = 1000;

/**
 * Hits of an explicit recall that count as used (heat, last access): the top three. A person or agent
 * who asks reads and acts on the top of the list; the rest is browsing. One bounded store write.
 */
export const RECALL_USED_TOP_N = 3;

/** `mnemo recall <query...>`: hybrid search of the project's memories plus the global ones. */
export async function recall(
  ctx: CliContext,
  words: readonly string[],
  options: RecallCliOptions,
): Promise<void> {
  const query = words.join(' ');
  // Refused before any model loads: a typo must not cost an embedder start.
  if (query.trim() === '') {
    throw new MemoryError('INVALID_INPUT', 'The query is empty. Give words to search for.');
  }
  const since =
    options.since === undefined ? undefined : parseDateOption('--since', options.since, 'start');
  const until =
    options.until === undefined ? undefined : parseDateOption('--until', options.until, 'end');
  const projectKey = projectKeyFromOption(ctx.io, options.project);
  const app = await ctx.openApp();
  const scope: Scope = { projectKey, includeGlobal: true };
  const warn = (text: string) => writeOut(ctx.io.stderr, `mnemo: ${text}\n`);
  const embedder = await prepareEmbedder(app, scope, warn);
  const wordEmbedder = await prepareWords(app, scope);
  const { openReranker } = await import('../../embed/open-embedder.js');
  const report = await retrieveDetailed(
    {
      store: app.store,
      clock: app.clock,
      embedder,
      wordEmbedder,
      reranker: await openReranker(app.config),
    },
    {
      query,
      scope,
      limit: options.limit ?? app.config.recallLimit,
      filters: {
        ...(options.kind === undefined ? {} : { kinds: options.kind }),
        ...(options.tag === undefined ? {} : { tags: options.tag }),
        ...(options.origin === undefined ? {} : { origins: options.origin }),
        ...(since === undefined ? {} : { createdAfter: since }),
        ...(until === undefined ? {} : { createdBefore: until }),
      },
      explain: options.explain === true,
      mmr: options.diverse === true,
      recordAccess: RECALL_USED_TOP_N,
    },
  );
  // Stale memories (a cited file changed, moved or was deleted) stay in the list, lower and labelled.
  const staleness = await stalenessFrom(
    app,
    projectKey,
    resolve(ctx.io.cwd, options.project ?? '.'),
    report.hits.map((hit) => hit.memory),
    recallBudget(),
  );
  const hits = demoteStale(report.hits, (id) => staleness.get(id));
  const staleOf = (hit: RankedHit) => staleness.get(hit.memory.id);
  if (options.json === true) {
    const withStaleness = hits.map((hit) => ({
      ...hit,
      staleness: {
        status: staleOf(hit)?.status ?? 'unchecked',
        label: staleOf(hit)?.label ?? null,
      },
    }));
    const body =
      options.explain === true
        ? { query, scope, hits: withStaleness, explain: explainBody(report) }
        : { query, scope, hits: withStaleness };
    await writeOut(ctx.io.stdout, `${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  if (options.context === true) {
    // For a model: the one renderer, a fresh nonce, nothing outside the frame (threat model R3).
    const items = hits.map((hit) => toRenderItem(hit.memory, staleOf(hit)));
    const framed = renderMemories(items, {
      nonce: randomBytes(16).toString('hex'),
      title: 'recall',
      now: app.clock.now().toISOString(),
    });
    await writeOut(ctx.io.stdout, framed === '' ? '' : `${framed}\n`);
    return;
  }
  let text = options.explain === true ? explainHeader(report) : '';
  if (hits.length === 0) {
    text += `No memories match "${query}" in ${projectKey} or the global ones. Try other words, or \`mnemo list\` to browse.\n`;
    await writeOut(ctx.io.stdout, text);
    return;
  }
  hits.forEach((hit, i) => {
    const staleness = staleOf(hit);
    const label =
      `  relevance ${hit.relevance.toFixed(2)}` +
      (hit.quarantined ? '  [pending review]' : '') +
      (isStale(staleness) ? `  [stale: ${staleness?.label ?? 'a cited file changed'}]` : '');
    text += formatMemoryLine(hit.memory, `${i + 1}. `).replace('\n', `${label}\n`);
    if (options.explain === true) text += explainLine(hit, `${i + 1}. `.length);
  });
  const floor = Math.min(...hits.map((hit) => relevanceFloor(evidencePath(hit.evidence))));
  if (hits.every((hit) => hit.relevance < floor)) {
    text += `\nNone of these clears the relevance floor (${floor}): they are only the closest matches, and a session would be given none of them.\n`;
  }
  await writeOut(ctx.io.stdout, text);
}

/**
 * The configured embedder with in-scope memories caught up, or undefined (lexical and identifier legs
 * only) when it cannot be opened or loaded: recall degrades, and says so on stderr.
 */
async function prepareEmbedder(
  app: App,
  scope: Scope,
  warn: (text: string) => Promise<void>,
): Promise<Embedder | undefined> {
  try {
    const { openEmbedder } = await import('../../embed/open-embedder.js');
    const embedder = await openEmbedder(app.config);
    await embedPending(app.store, embedder, {
      max: RECALL_CATCH_UP_LIMIT,
      batchSize: RECALL_CATCH_UP_BATCH,
      scope,
    });
    return embedder;
  } catch (error) {
    if (!isMemoryError(error)) throw error;
    app.log.warn('vector leg off', { error: error.message });
    await warn(`vector search is off for this recall: ${error.message}`);
    return undefined;
  }
}

/**
 * The words leg when its table is built (`mnemo model words`), with in-scope memories caught up; off
 * otherwise (a recall never converts the table). Word vectors cost microseconds a memory.
 */
async function prepareWords(app: App, scope: Scope): Promise<Embedder | undefined> {
  const { openWordLeg } = await import('../../retrieval/word-vectors.js');
  const leg = await openWordLeg(app.store, app.config.home, { convert: false });
  if (leg.embedder === undefined) {
    app.log.debug('words leg off', { why: leg.skipped });
    return undefined;
  }
  await embedPending(app.store, leg.embedder, {
    max: RECALL_WORDS_CATCH_UP_LIMIT,
    batchSize: RECALL_WORDS_CATCH_UP_LIMIT,
    scope,
    slot: 'extra',
  });
  return leg.embedder;
}

function explainBody(report: RetrieveReport): object {
  return {
    legs: report.legs,
    candidates: report.candidates,
    rerank: report.rerank,
    mmr: report.mmr,
  };
}

function explainHeader(report: RetrieveReport): string {
  const legs = report.legs
    .map((leg) =>
      leg.ran
        ? `${leg.name} ${leg.candidates}${leg.detail === undefined || leg.detail === '' ? '' : ` (${leg.detail})`}`
        : `${leg.name} off (${leg.skipped ?? 'not run'})`,
    )
    .join('; ');
  const rerank = report.rerank.ran
    ? `rerank ${report.rerank.model ?? ''} over ${report.rerank.window}`
    : `rerank off (${report.rerank.skipped ?? 'not run'})`;
  return `legs: ${legs}\n${rerank}; ${report.candidates} candidates fused${report.mmr ? '; MMR on' : ''}\n\n`;
}

function evidenceText(evidence: RankedHit['evidence']): string {
  return [
    `${evidencePath(evidence)} evidence: coverage ${evidence.coverage.toFixed(2)}`,
    evidence.similarityZ === undefined
      ? undefined
      : `similarity z ${evidence.similarityZ.toFixed(2)}`,
    `lead ${evidence.lead.toFixed(2)}`,
    `rank ${evidence.rank}`,
    evidence.concept === true ? 'concept' : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}

function explainLine(hit: RankedHit & { staleFactor: number }, indent: number): string {
  const ranks = (['lexical', 'vector', 'words', 'identifier', 'concept', 'rerank'] as const)
    .map((signal) => `${signal} ${hit.ranks[signal] === undefined ? '-' : `#${hit.ranks[signal]}`}`)
    .join(', ');
  const f = hit.factors;
  const pad = ' '.repeat(indent + 4);
  return (
    `${pad}relevance ${hit.relevance.toFixed(3)} (calibrated, ${evidenceText(hit.evidence)})\n` +
    `${pad}score ${hit.score.toFixed(5)} = fused rank ${hit.fusedScore.toFixed(5)} × recency ${f.recency.toFixed(3)}` +
    ` × heat ${f.heat.toFixed(3)} × trust ${f.trust.toFixed(2)}` +
    `${hit.staleFactor === 1 ? '' : ` × stale ${hit.staleFactor.toFixed(2)}`}\n` +
    `${pad}ranks: ${ranks}; origin ${hit.memory.origin} (${hit.trustBand})` +
    `${hit.quarantined ? ', pending review' : ''}; created ${hit.memory.createdAt}\n`
  );
}
