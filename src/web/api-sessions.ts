/**
 * Sessions as they happen and as they happened: `GET /api/feed`, a live feed of captures (server-sent
 * events; the page reads it with `fetch` so the token stays in a header, never in an address), and
 * `GET /api/sessions/:id`, one session's timeline: every memory it captured and every injection into it,
 * with what was injected, on which event, at what token cost, and what was withheld and why.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';

import { QUARANTINE_STATES } from '../core/memory.js';
import { WITHHELD_MEANING, type WithheldKey } from '../review/meanings.js';
import { isReadableBy } from '../store/reader-scope.js';
import type { MemoryFilter } from '../store/store.js';
import { parseQuery, projectParam, readerFilter, type WebContext } from './web-context.js';
import { memoryRow, type TimelineEvent } from './web-views.js';

/** How often the feed looks for new captures; the store is the only source, so it works across processes. */
export const FEED_POLL_MS = 1000;
/** Captures sent when the feed opens (the newest) and read per look. */
const FEED_BATCH = 20;
/** A feed closes itself after this long; the page reopens it (bounded work per connection). */
const FEED_MAX_MS = 30 * 60_000;
/** Captures and injections a timeline shows, each. */
const TIMELINE_LIMIT = 500;

const feedQuery = z.strictObject({ project: projectParam });
const sessionId = z.string().trim().min(1).max(256);

function meaningOf(reason: string): string {
  return WITHHELD_MEANING[reason as WithheldKey] ?? reason;
}

export function sessionRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const { store } = ctx.app;

  routes.get('/feed', (c) => {
    const params = parseQuery(feedQuery, c.req.query());
    const base: MemoryFilter = {
      ...readerFilter(params.project, ctx.reader),
      quarantine: QUARANTINE_STATES,
      includeSuperseded: true,
    };
    return streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      const started = Date.now();
      let since: string | undefined;
      let seenAtSince = new Set<string>();
      while (open && Date.now() - started < FEED_MAX_MS) {
        const batch = await store.listMemories({
          ...base,
          ...(since === undefined ? {} : { createdAfter: since }),
          limit: FEED_BATCH,
        });
        // Oldest first, so the page can prepend each as it comes.
        for (const memory of batch.reverse()) {
          if (seenAtSince.has(memory.id)) continue;
          await stream.writeSSE({
            event: 'capture',
            id: memory.id,
            data: JSON.stringify(memoryRow(memory)),
          });
          if (since === undefined || memory.createdAt > since) {
            since = memory.createdAt;
            seenAtSince = new Set();
          }
          seenAtSince.add(memory.id);
        }
        if (since === undefined) since = ctx.app.clock.now().toISOString();
        await stream.writeSSE({ event: 'ready', data: '{}' });
        await stream.sleep(FEED_POLL_MS);
      }
    });
  });

  routes.get('/sessions/:id', async (c) => {
    const id = parseQuery(sessionId, c.req.param('id'));
    const [captured, injections] = await Promise.all([
      store.listMemories({
        reader: ctx.reader,
        sessionIds: [id],
        quarantine: QUARANTINE_STATES,
        includeSuperseded: true,
        limit: TIMELINE_LIMIT,
      }),
      store.listInjections({ sessionId: id, limit: TIMELINE_LIMIT }),
    ]);
    const injectedIds = [...new Set(injections.flatMap((i) => i.memoryIds))];
    const stored = await store.getMemories(injectedIds);
    const existing = new Set(stored.map((m) => m.id));
    const injected = new Map(
      stored.filter((m) => isReadableBy(m, ctx.reader)).map((m) => [m.id, memoryRow(m)]),
    );
    const events: TimelineEvent[] = [
      ...captured.map((m) => ({ type: 'capture' as const, at: m.createdAt, memory: memoryRow(m) })),
      ...injections.map((i) => ({
        type: 'injection' as const,
        at: i.at,
        seq: i.seq,
        event: i.event,
        source: i.source,
        tokens: i.tokens,
        memories: i.memoryIds.flatMap((m) => {
          const row = injected.get(m);
          return row === undefined ? [] : [row];
        }),
        gone: i.memoryIds.filter((m) => !existing.has(m)).length,
        indexed: i.indexIds.filter((m) => injected.has(m)),
        withheld: i.withheld.map((w) => ({
          id: w.id,
          reasons: w.reasons.map((reason) => ({ reason, meaning: meaningOf(reason) })),
        })),
      })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    return c.json({
      session: id,
      captures: captured.length,
      injections: injections.length,
      tokens: injections.reduce((sum, i) => sum + i.tokens, 0),
      events,
    });
  });

  return routes;
}
