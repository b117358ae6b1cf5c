/**
 * Memories one at a time and in pages: `GET /api/memories` (newest first, filtered and paged on the
 * server), `GET /api/memories/:id` (everything the viewer knows about one memory, its fragment cluster
 * included), and the two review decisions on one memory, through the same path as `mnemo approve` /
 * `mnemo reject`.
 */
import { existsSync } from 'node:fs';

import { Hono } from 'hono';
import { z } from 'zod';

import { reportAnchors } from '../anchors/anchor-report.js';
import { injectionEligibility } from '../core/gate/injection-eligibility.js';
import { MEMORY_KINDS } from '../core/memory.js';
import { parseOriginClass, trustBand } from '../core/origin/origin-class.js';
import { clusterForReview } from '../review/cluster-review.js';
import { supersedeHistory } from '../review/explain-memory.js';
import { gateView, ORIGIN_MEANING, withheldView } from '../review/meanings.js';
import { decideReview, rejectAndDelete } from '../review/review-decision.js';
import {
  baseFilter,
  pageParams,
  parseQuery,
  projectParam,
  readableMemory,
  STATE_VIEWS,
  type WebContext,
} from './web-context.js';
import { clusterView, memoryFull, memoryPage, memoryRow } from './web-views.js';

const listQuery = z.strictObject({
  project: projectParam,
  state: z.enum(STATE_VIEWS).default('active'),
  origin: z.string().min(1).max(64).optional(),
  kind: z.enum(MEMORY_KINDS).optional(),
  superseded: z.enum(['include', 'exclude']).default('exclude'),
  ...pageParams,
});

export function memoryRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const { store } = ctx.app;

  routes.get('/memories', async (c) => {
    const params = parseQuery(listQuery, c.req.query());
    const filter = {
      ...baseFilter(params.project, params.state, ctx.reader),
      ...(params.origin === undefined ? {} : { origins: [params.origin] }),
      ...(params.kind === undefined ? {} : { kinds: [params.kind] }),
      includeSuperseded: params.superseded === 'include',
    };
    return c.json(await memoryPage(store, filter, params));
  });

  routes.get('/memories/:id', async (c) => {
    const memory = await readableMemory(store, c.req.param('id'), ctx.reader);
    // Checked against the memory's own project directory when it is on this machine, with the full
    // budget of an explicit request, as `mnemo explain` does (verdicts are cached, a pending memory is
    // backfilled); a global memory's files belong to wherever it was written.
    const dir =
      memory.visibility === 'project' && existsSync(memory.projectKey) ? memory.projectKey : null;
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
      audit,
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
