/**
 * A person's changes to one memory from the viewer: edit its text, tags or kind in place, pin or unpin
 * it, replace it (supersede: the old one stays in history) or forget it. Each goes through the same
 * services as every human channel (src/review/user-edit.ts: redaction, the write service for a
 * replacement, an audit entry naming the actor) and passes the guard like every change: token, Origin,
 * CSRF token, JSON body.
 */
import { Hono } from 'hono';
import { z } from 'zod';

import { MAX_CONTENT_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, MEMORY_KINDS } from '../core/memory.js';
import { editInPlace, forgetAsUser, replaceWith, setPinned } from '../review/user-edit.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { jsonBody } from './api-review.js';
import { parseQuery, readableMemory, type WebContext } from './web-context.js';
import { memoryDirOf } from './web-staleness.js';
import { memoryRow } from './web-views.js';

const content = z.string().trim().min(1).max(MAX_CONTENT_LENGTH);
const editBody = z
  .strictObject({
    content: content.optional(),
    tags: z.array(z.string().trim().min(1).max(MAX_TAG_LENGTH)).max(MAX_TAGS).optional(),
    kind: z.enum(MEMORY_KINDS).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
const pinBody = z.strictObject({ pinned: z.boolean() });
const supersedeBody = z.strictObject({ content });

export function editRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const { app } = ctx;

  routes.post('/memories/:id/edit', async (c) => {
    const body = parseQuery(editBody, await jsonBody(c.req.raw));
    const memory = await readableMemory(app.store, c.req.param('id'), ctx.reader);
    const edited = await editInPlace(
      app,
      memory,
      {
        ...(body.content === undefined ? {} : { content: body.content }),
        ...(body.tags === undefined ? {} : { tags: body.tags }),
        ...(body.kind === undefined ? {} : { kind: body.kind }),
      },
      ctx.actor,
    );
    return c.json({ memory: memoryRow(edited.memory), redactions: edited.redactions });
  });

  routes.post('/memories/:id/pin', async (c) => {
    const body = parseQuery(pinBody, await jsonBody(c.req.raw));
    const memory = await readableMemory(app.store, c.req.param('id'), ctx.reader);
    return c.json({ memory: memoryRow(await setPinned(app, memory, body.pinned, ctx.actor)) });
  });

  routes.post('/memories/:id/supersede', async (c) => {
    const body = parseQuery(supersedeBody, await jsonBody(c.req.raw));
    const memory = await readableMemory(app.store, c.req.param('id'), ctx.reader);
    const outcome = await replaceWith(
      writeDepsFrom(app),
      memory,
      body.content,
      ctx.actor,
      memoryDirOf(memory),
    );
    if (outcome.decision === 'reject') {
      return c.json(
        {
          error: {
            code: 'REFUSED',
            message: `The replacement was refused (${outcome.reason}): ${outcome.notes.join('; ')}`,
          },
        },
        422,
      );
    }
    return c.json({
      decision: outcome.decision,
      replaced: memory.id,
      memory: memoryRow(outcome.memory),
    });
  });

  routes.post('/memories/:id/forget', async (c) => {
    const memory = await readableMemory(app.store, c.req.param('id'), ctx.reader);
    await forgetAsUser(app, memory, ctx.actor);
    return c.json({ id: memory.id, forgotten: true });
  });

  return routes;
}
