/**
 * Memories one at a time and in pages: `GET /api/memories` (newest first, filtered and paged on the
 * server), `GET /api/memories/:id` (everything the viewer knows about one memory, its fragment cluster
 * included), and the two review decisions on one memory, through the same path as `mnemo approve` /
 * `mnemo reject`.
 */
import { Hono } from 'hono';
import { z } from 'zod';

import { reportAnchors } from '../anchors/anchor-report.js';
import { recallBudget } from '../anchors/verify-anchors.js';
import { injectionEligibility } from '../core/gate/injection-eligibility.js';
import { MEMORY_KINDS } from '../core/memory.js';
import { parseOriginClass, trustBand } from '../core/origin/origin-class.js';
import { clusterForReview } from '../review/cluster-review.js';
import { supersedeHistory } from '../review/explain-memory.js';
import { gateView, ORIGIN_MEANING, withheldView } from '../review/meanings.js';
import { decideReview, rejectAndDelete } from '../review/review-decision.js';
import type { MemoryFilter } from '../store/store.js';
import { auditRows } from './audit-view.js';
import {
  dayEnd,
  dayStart,
  sourceFilter,
  STALENESS_FILTERS,
  stalePage,
  withStaleness,
} from './memory-filters.js';
import {
  baseFilter,
  pageParams,
  parseQuery,
  projectParam,
  readableMemory,
  STATE_VIEWS,
  type WebContext,
} from './web-context.js';
import { memoryDirOf, stalenessOfMany } from './web-staleness.js';
import { clusterView, memoryFull, memoryPage, memoryRow } from './web-views.js';

/** A day (YYYY-MM-DD, the date input's value) or a full ISO time. */
const dayOrTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+Z)?$/u, 'a date as YYYY-MM-DD')
  .refine((text) => !Number.isNaN(Date.parse(text)), 'not a real date')
  .optional();

const listQuery = z.strictObject({
  project: projectParam,
  state: z.enum(STATE_VIEWS).default('active'),
  origin: z.string().min(1).max(64).optional(),
  kind: z.enum(MEMORY_KINDS).optional(),
  /** A site (`example.com`, its subdomains too) or one page's address (`https://…`). */
  source: z.string().trim().min(1).max(2048).optional(),
  tool: z.string().min(1).max(256).optional(),
  session: z.string().min(1).max(256).optional(),
  since: dayOrTime,
  until: dayOrTime,
  staleness: z.enum(STALENESS_FILTERS).optional(),
  superseded: z.enum(['include', 'exclude']).default('exclude'),
  ...pageParams,
});

export function memoryRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const { store } = ctx.app;

  routes.get('/memories', async (c) => {
    const params = parseQuery(listQuery, c.req.query());
    const filter: MemoryFilter = {
      ...baseFilter(params.project, params.state, ctx.reader),
      ...(params.origin === undefined ? {} : { origins: [params.origin] }),
      ...(params.kind === undefined ? {} : { kinds: [params.kind] }),
      ...(params.source === undefined ? {} : sourceFilter(params.source)),
      ...(params.tool === undefined ? {} : { originTools: [params.tool] }),
      ...(params.session === undefined ? {} : { sessionIds: [params.session] }),
      ...(params.since === undefined ? {} : { createdAfter: dayStart(params.since) }),
      ...(params.until === undefined ? {} : { createdBefore: dayEnd(params.until) }),
      includeSuperseded: params.superseded === 'include',
    };
    if (params.staleness !== undefined) {
      return c.json(await stalePage(ctx, filter, params.staleness, params));
    }
    const page = await memoryPage(store, filter, params);
    const memories = await store.getMemories(page.items.map((row) => row.id));
    const staleness = await stalenessOfMany(ctx, memories, recallBudget());
    for (const row of page.items) withStaleness(row, staleness.get(row.id));
    return c.json(page);
  });

  routes.get('/memories/:id', async (c) => {
    const memory = await readableMemory(store, c.req.param('id'), ctx.reader);
    // Checked against the memory's own project directory when it is on this machine, with the full
    // budget of an explicit request, as `mnemo explain` does (verdicts are cached, a pending memory is
    // backfilled); a global memory's files belong to wherever it was written.
    const dir = memoryDirOf(memory);
    const [anchors, history, audit, cluster] = await Promise.all([
      reportAnchors(ctx.app, memory, memory.projectKey, dir),
      supersedeHistory(store, memory, ctx.reader),
      store.auditTrail(memory.id),
      clusterForReview(store, memory.id),
    ]);
    const origin = parseOriginClass(memory.origin);
    const eligibility = injectionEligibility(memory);
    return c.json({
      memory: memoryFull(memory),
      origin: {
        class: origin,
        meaning: ORIGIN_MEANING[origin],
        trustBand: trustBand(origin),
        tool: memory.originTool,
        session: memory.sessionId,
        tainted: memory.tainted,
        sourceUrl: memory.sourceUrl,
      },
      gate: gateView(memory),
      injection: {
        eligible: eligibility.eligible && anchors.status !== 'gone',
        withheld: withheldView([
          ...eligibility.reasons,
          ...(anchors.status === 'gone' ? (['cited_files_deleted'] as const) : []),
        ]),
      },
      history: {
        replaced: history.replaced.map(memoryRow),
        replacedBy: history.replacedBy.map(memoryRow),
      },
      anchors,
      cluster: cluster === undefined ? null : clusterView(cluster, ctx.reader),
      audit: auditRows(audit),
    });
  });

  routes.post('/memories/:id/approve', async (c) => {
    await readableMemory(ctx.app.store, c.req.param('id'), ctx.reader);
    const result = await decideReview(ctx.app, c.req.param('id'), 'approved', ctx.actor);
    return c.json({
      memory: memoryRow(result.memory),
      changed: result.changed,
      injectable: result.injectable,
      cluster: result.cluster ?? null,
    });
  });

  routes.post('/memories/:id/reject', async (c) => {
    await readableMemory(ctx.app.store, c.req.param('id'), ctx.reader);
    const result = await rejectAndDelete(ctx.app, c.req.param('id'), ctx.actor);
    return c.json({ id: result.memory.id, deleted: true, cluster: result.cluster ?? null });
  });

  return routes;
}
