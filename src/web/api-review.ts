/**
 * The quarantine inbox: memories held for review (network captures, unknown channels, agent writes in
 * a tainted session), grouped by where they came from — page, site, tool, session — with bulk decisions
 * on a whole group: approve it, or purge it ("everything that came from this"). Decisions go through
 * the same audited path as `mnemo approve` and `mnemo reject`. A fragment cluster is decided as one,
 * so a group decision can move cluster members outside the group: `GET /review/bulk/preview` says how
 * many before the person confirms, and the decision refuses (409) when that count changed since.
 */
import { Hono } from 'hono';
import { z } from 'zod';

import { MemoryError } from '../core/errors.js';
import { normaliseDomain } from '../core/origin/source-url.js';
import { decideMany, previewMany } from '../review/bulk-decision.js';
import { clusterForReview } from '../review/cluster-review.js';
import type { MemoryFilter, MemoryGroupField } from '../store/store.js';
import { groupMarks } from './group-marks.js';
import {
  baseFilter,
  pageParams,
  parseQuery,
  projectParam,
  STATE_VIEWS,
  type StateView,
  type WebContext,
} from './web-context.js';
import { memoryPage } from './web-views.js';

/** How a person groups the inbox, and the memory field behind each. */
export const GROUPINGS = ['url', 'domain', 'tool', 'session'] as const;
export type Grouping = (typeof GROUPINGS)[number];
const FIELD: Record<Grouping, MemoryGroupField> = {
  url: 'sourceUrl',
  domain: 'sourceHost',
  tool: 'originTool',
  session: 'sessionId',
};

/** Groups listed per grouping: the largest ones; a long tail is reached by typing its key. */
export const MAX_GROUPS = 100;

/** The filter for "memories of this group": a domain includes its subdomains. */
export function groupFilter(by: Grouping, key: string): MemoryFilter {
  switch (by) {
    case 'url':
      return { sourceUrls: [key] };
    case 'domain': {
      const domain = normaliseDomain(key);
      if (domain === null) {
        throw new MemoryError('INVALID_INPUT', `"${key.slice(0, 80)}" is not a domain name.`);
      }
      return { sourceDomains: [domain] };
    }
    case 'tool':
      return { originTools: [key] };
    case 'session':
      return { sessionIds: [key] };
  }
}

const key = z.string().trim().min(1).max(4096);
const inboxQuery = z.strictObject({
  project: projectParam,
  state: z.enum(STATE_VIEWS).default('pending'),
  by: z.enum(GROUPINGS).optional(),
  key: key.optional(),
  ...pageParams,
});
const groupsQuery = z.strictObject({
  project: projectParam,
  state: z.enum(STATE_VIEWS).default('pending'),
  by: z.enum(GROUPINGS),
});
const bulkGroup = {
  action: z.enum(['approve', 'purge']),
  by: z.enum(GROUPINGS),
  key,
  project: projectParam,
  state: z.enum(STATE_VIEWS).default('pending'),
};
const previewQuery = z.strictObject(bulkGroup);
const bulkBody = z.strictObject({
  ...bulkGroup,
  /** The count of memories outside the group the person saw in the preview and confirmed. */
  expectOutside: z.number().int().min(0).optional(),
});

export function reviewRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const { store } = ctx.app;

  routes.get('/review', async (c) => {
    const params = parseQuery(inboxQuery, c.req.query());
    if ((params.by === undefined) !== (params.key === undefined)) {
      throw new MemoryError('INVALID_INPUT', 'Give both "by" and "key", or neither.');
    }
    const filter: MemoryFilter = {
      ...baseFilter(params.project, params.state, ctx.reader),
      ...(params.by === undefined || params.key === undefined
        ? {}
        : groupFilter(params.by, params.key)),
    };
    const page = await memoryPage(store, filter, params);
    for (const item of page.items) {
      const cluster = await clusterForReview(store, item.id);
      item.clusterId = cluster?.clusterId ?? null;
      item.clusterMembers = cluster?.stored.length ?? null;
    }
    // A group's bulk decision is offered with what marks the group as hostile.
    const marks = params.by === undefined ? null : await groupMarks(store, filter);
    return c.json({ ...page, marks });
  });

  routes.get('/review/groups', async (c) => {
    const params = parseQuery(groupsQuery, c.req.query());
    const groups = await store.countMemoryGroups(
      baseFilter(params.project, params.state, ctx.reader),
      {
        by: FIELD[params.by],
        limit: MAX_GROUPS,
      },
    );
    return c.json({ by: params.by, groups });
  });

  // What a bulk decision would do, for the confirmation: nothing changes.
  routes.get('/review/bulk/preview', async (c) => {
    const params = parseQuery(previewQuery, c.req.query());
    const preview = await previewMany(store, bulkFilter(ctx, params), params.action);
    return c.json({ action: params.action, by: params.by, key: params.key, ...preview });
  });

  routes.post('/review/bulk', async (c) => {
    const body = parseQuery(bulkBody, await jsonBody(c.req.raw));
    const report = await decideMany(ctx.app, bulkFilter(ctx, body), body.action, ctx.actor, {
      ...(body.expectOutside === undefined ? {} : { expectOutside: body.expectOutside }),
    });
    return c.json({ action: body.action, by: body.by, key: body.key, ...report });
  });

  return routes;
}

/** The memories of one group, as `reader` may see them. */
function bulkFilter(
  ctx: WebContext,
  group: { project?: string | undefined; state: StateView; by: Grouping; key: string },
): MemoryFilter {
  return {
    ...baseFilter(group.project, group.state, ctx.reader),
    ...groupFilter(group.by, group.key),
  };
}

/** The request body as JSON; INVALID_INPUT (400) when it is not. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new MemoryError('INVALID_INPUT', 'The request body is not valid JSON.');
  }
}
