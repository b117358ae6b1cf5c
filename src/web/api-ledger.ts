/**
 * `GET /api/ledger`: what proactive injection put into which session, when and at what token cost,
 * with totals per day (the same report as `mnemo ledger`), sessions newest first and paged, and a short
 * view of each injected memory of the page (or that it was forgotten since).
 */
import { Hono } from 'hono';
import { z } from 'zod';

import { readLedger } from '../review/summarise-ledger.js';
import { isReadableBy } from '../store/reader-scope.js';
import { pageParams, parseQuery, projectParam, type WebContext } from './web-context.js';
import { memoryRow } from './web-views.js';

const ledgerQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(366).default(7),
  session: z.string().min(1).max(256).optional(),
  project: projectParam,
  offset: pageParams.offset,
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export function ledgerRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  routes.get('/ledger', async (c) => {
    const params = parseQuery(ledgerQuery, c.req.query());
    const report = await readLedger(ctx.app.store, ctx.app.clock.now(), {
      days: params.days,
      session: params.session ?? null,
      reader: ctx.reader,
      ...(params.project === undefined ? {} : { projectKey: params.project }),
    });
    const newestFirst = [...report.sessions].sort((a, b) => b.last.localeCompare(a.last));
    const page = newestFirst.slice(params.offset, params.offset + params.limit);
    const ids = [...new Set(page.flatMap((s) => s.memoryIds))];
    const memories = (await ctx.app.store.getMemories(ids)).filter((m) =>
      isReadableBy(m, ctx.reader),
    );
    return c.json({
      reader: report.reader,
      since: report.since,
      days: report.days,
      partial: report.partial,
      totals: report.totals,
      byDay: report.byDay,
      sessionCount: newestFirst.length,
      offset: params.offset,
      limit: params.limit,
      sessions: page.map((session) => ({
        ...session,
        entries: [...session.entries].reverse(),
      })),
      memories: Object.fromEntries(memories.map((m) => [m.id, memoryRow(m)])),
    });
  });
  return routes;
}
