/**
 * `GET /api/search`: hybrid recall with its working, as `mnemo recall --explain` prints it. Within a
 * project it is the same `retrieveDetailed` the CLI and the hooks use (scope: the project plus global
 * memories); across all projects only the word index can rank, and the answer says so. Browsing is not
 * use: nothing is recorded as accessed, so the viewer never heats a memory.
 */

import { Hono } from 'hono';
import { z } from 'zod';

import { recallBudget } from '../anchors/verify-anchors.js';
import { isStale } from '../core/anchors/staleness.js';
import { MEMORY_KINDS } from '../core/memory.js';
import { evidencePath, relevanceFloor } from '../core/ranking/relevance.js';
import { demoteStale } from '../core/ranking/stale-rank.js';
import { embedPending } from '../retrieval/embed-pending.js';
import { retrieveDetailed } from '../retrieval/retrieve.js';
import {
  parseQuery,
  projectParam,
  quarantineOf,
  STATE_VIEWS,
  type WebContext,
} from './web-context.js';
import { stalenessOfMany } from './web-staleness.js';
import { memoryRow } from './web-views.js';

/** Memories embedded before one search when no engine fills vectors in (as `mnemo recall` does). */
export const SEARCH_CATCH_UP = 64;

const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(item).max(20).optional(),
  );

const searchQuery = z.strictObject({
  q: z.string().trim().min(1, 'give words to search for').max(2000),
  project: projectParam,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  kind: list(z.enum(MEMORY_KINDS)),
  origin: list(z.string().min(1).max(64)),
  state: z.enum(STATE_VIEWS).default('active'),
});

export function searchRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  routes.get('/search', async (c) => {
    const params = parseQuery(searchQuery, c.req.query());
    const quarantine = quarantineOf(params.state);
    const filters = {
      ...(params.kind === undefined ? {} : { kinds: params.kind }),
      ...(params.origin === undefined ? {} : { origins: params.origin }),
      ...(quarantine === undefined ? {} : { quarantine }),
    };
    const { store, clock } = ctx.app;
    if (params.project === undefined) {
      const hits = await store.searchLexical(params.q, {
        ...filters,
        reader: ctx.reader,
        limit: params.limit,
      });
      const memories = await store.getMemories(hits.map((hit) => hit.id));
      const rankOf = new Map(hits.map((hit, i) => [hit.id, { score: hit.score, rank: i + 1 }]));
      const stale = await stalenessOfMany(ctx, memories, recallBudget());
      return c.json({
        mode: 'lexical',
        query: params.q,
        project: null,
        legs: [{ name: 'lexical', ran: true, candidates: hits.length }],
        candidates: hits.length,
        hits: memories.map((memory) => ({
          memory: memoryRow(memory),
          score: rankOf.get(memory.id)?.score ?? 0,
          ranks: { lexical: rankOf.get(memory.id)?.rank },
          stale: isStale(stale.get(memory.id)),
          staleLabel: stale.get(memory.id)?.label ?? null,
        })),
      });
    }
    const scope = { projectKey: params.project, includeGlobal: true, author: ctx.reader };
    const models = await ctx.models();
    if (ctx.catchUpEmbeddings && models.embedder !== undefined) {
      await embedPending(store, models.embedder, {
        max: SEARCH_CATCH_UP,
        batchSize: 32,
        scope,
      });
    }
    const report = await retrieveDetailed(
      { store, clock, embedder: models.embedder, reranker: models.reranker },
      { query: params.q, scope, limit: params.limit, filters, explain: true },
    );
    // Stale memories (a cited file changed, moved or was deleted) stay in the list, lower and labelled,
    // exactly as `mnemo recall` ranks them; checked from the project's directory when it is here.
    const staleness = await stalenessOfMany(
      ctx,
      report.hits.map((hit) => hit.memory),
      recallBudget(),
    );
    const hits = demoteStale(report.hits, (id) => staleness.get(id));
    return c.json({
      mode: 'hybrid',
      query: params.q,
      project: params.project,
      legs: report.legs,
      candidates: report.candidates,
      fusion: report.fusion,
      // The lowest calibrated relevance a session would be given, for the path this search took.
      relevanceFloor: relevanceFloor(
        report.hits[0] === undefined ? 'lexical' : evidencePath(report.hits[0].evidence),
      ),
      rerank: report.rerank,
      mmr: report.mmr,
      hits: hits.map((hit) => {
        const state = staleness.get(hit.memory.id);
        return {
          memory: memoryRow(hit.memory),
          score: hit.score,
          fusedScore: hit.fusedScore,
          relevance: hit.relevance,
          evidence: hit.evidence,
          // Rendered generically by the page: a new leg or factor shows up without a front-end change.
          ranks: hit.ranks,
          contributions: hit.contributions,
          factors: hit.staleFactor === 1 ? hit.factors : { ...hit.factors, stale: hit.staleFactor },
          heat: hit.heat,
          trustBand: hit.trustBand,
          quarantined: hit.quarantined,
          stale: isStale(state),
          staleLabel: state?.label ?? null,
        };
      }),
    });
  });
  return routes;
}
