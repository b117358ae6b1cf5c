/**
 * `GET /api/dashboard`: the numbers behind the dashboard's charts, each computed by the store over the
 * whole filter (group counts, counters, heat inputs of warm memories) so a store of 100k memories is
 * never loaded: memories by origin per day, captures stored against skipped per day, and how heat is
 * spread right now.
 */
import { Hono } from 'hono';
import { z } from 'zod';

import { QUARANTINE_STATES } from '../core/memory.js';
import { addToBuckets, emptyHeatBuckets } from '../core/ranking/heat-buckets.js';
import type { MemoryFilter, MemoryStore } from '../store/store.js';
import { parseQuery, projectParam, readerFilter, type WebContext } from './web-context.js';
import type { CaptureDay } from './web-views.js';

const DAY_MS = 86_400_000;
/** Heat inputs read per store call. */
const HEAT_PAGE = 5000;

const dashboardQuery = z.strictObject({
  project: projectParam,
  days: z.coerce.number().int().min(1).max(366).default(30),
});

function captureDay(day: string): CaptureDay {
  return { day, stored: 0, merged: 0, rejected: 0, skipped: 0 };
}

function outcomeOf(name: string): keyof Omit<CaptureDay, 'day'> | undefined {
  if (name === 'write.stored') return 'stored';
  if (name === 'write.merged') return 'merged';
  if (name.startsWith('write.rejected.')) return 'rejected';
  if (name.startsWith('capture.skipped.')) return 'skipped';
  return undefined;
}

export function dashboardRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  routes.get('/dashboard', async (c) => {
    const params = parseQuery(dashboardQuery, c.req.query());
    const { store, clock } = ctx.app;
    const now = clock.now().getTime();
    const sinceDay = new Date(now - (params.days - 1) * DAY_MS).toISOString().slice(0, 10);
    const current: MemoryFilter = readerFilter(params.project, ctx.reader);
    // Over time: every memory created in the window, whatever happened to it since.
    const history: MemoryFilter = {
      ...current,
      createdAfter: `${sinceDay}T00:00:00.000Z`,
      includeSuperseded: true,
      quarantine: QUARANTINE_STATES,
    };
    const [total, pending, byOrigin, originDays, counters] = await Promise.all([
      store.countMemories(current),
      store.countMemories({ ...current, quarantine: ['pending'] }),
      store.countMemoryGroups(current, { by: 'origin', limit: 50 }),
      store.countMemoryGroups(history, { by: 'origin', perDay: true, limit: 50 * params.days }),
      store.readCounters(sinceDay),
    ]);
    const captures = new Map<string, CaptureDay>();
    for (const row of counters) {
      const outcome = outcomeOf(row.name);
      if (outcome === undefined) continue;
      const day = captures.get(row.day) ?? captureDay(row.day);
      day[outcome] += row.value;
      captures.set(row.day, day);
    }
    return c.json({
      since: sinceDay,
      days: params.days,
      project: params.project ?? null,
      totals: { memories: total, pending },
      byOrigin,
      originsOverTime: originDays.sort(
        (a, b) =>
          (a.day ?? '').localeCompare(b.day ?? '') || String(a.key).localeCompare(String(b.key)),
      ),
      // Counters are kept per day for the whole store, not per project.
      captures: {
        perProject: false,
        days: [...captures.values()].sort((a, b) => a.day.localeCompare(b.day)),
      },
      heat: await heatDistribution(store, current, total, now),
    });
  });
  return routes;
}

async function heatDistribution(
  store: MemoryStore,
  filter: MemoryFilter,
  total: number,
  now: number,
): Promise<{ buckets: ReturnType<typeof emptyHeatBuckets>; warm: number; total: number }> {
  const buckets = emptyHeatBuckets();
  let warm = 0;
  let afterId: string | undefined;
  for (;;) {
    const page = await store.listHeat(filter, {
      limit: HEAT_PAGE,
      ...(afterId === undefined ? {} : { afterId }),
    });
    addToBuckets(buckets, page, now);
    warm += page.length;
    if (page.length < HEAT_PAGE) break;
    afterId = page.at(-1)?.id;
  }
  // Memories never used have a stored heat of 0 and are not listed: they are all in the coldest bucket.
  const first = buckets[0];
  if (first !== undefined) first.count += Math.max(0, total - warm);
  return { buckets, warm, total };
}
