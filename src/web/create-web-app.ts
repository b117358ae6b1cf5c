/**
 * The web viewer: `createWebApp` returns the Hono app that `mnemo ui` and `mnemo serve` listen with on
 * 127.0.0.1 (start-web-server.ts), and that tests call in process with `app.request`. It is an edge like
 * the MCP server: it reaches memories through `app.store` only, reviews through src/review like the CLI,
 * and maps errors to HTTP statuses in one `onError` (architecture §2.4). Every request passes the guard
 * first (web-guard.ts): Host and Origin checks, the per-start token, CSRF on changes.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';

import { isMemoryError, type MemoryErrorCode } from '../core/errors.js';
import { MEMORY_KINDS } from '../core/memory.js';
import { ORIGIN_CLASSES } from '../core/origin/origin-class.js';
import { dashboardRoutes } from './api-dashboard.js';
import { editRoutes } from './api-edit.js';
import { ledgerRoutes } from './api-ledger.js';
import { memoryRoutes } from './api-memories.js';
import { projectPageRoutes } from './api-project-page.js';
import { jsonBody, reviewRoutes } from './api-review.js';
import { searchRoutes } from './api-search.js';
import { sessionRoutes } from './api-sessions.js';
import type { UiAssets } from './web-assets.js';
import type { WebContext } from './web-context.js';
import { CLAIM_PATH, securityHeaders, webGuard, type WebIdentity } from './web-guard.js';
import type { OpenCodes } from './web-open-codes.js';

export interface WebAppOptions extends WebContext {
  identity: WebIdentity;
  token: string;
  csrfToken: string;
  assets: UiAssets;
  version: string;
  /** One-time codes `--open` hands the browser instead of the token. */
  openCodes: OpenCodes;
  /** Called for every API request (the engine counts it as activity, so it does not idle out). */
  onActivity?: () => void;
}

/** Largest request body: a bulk decision is a few hundred bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Projects offered in the project filter: the largest ones. */
const MAX_PROJECTS = 200;

const STATUS: Partial<Record<MemoryErrorCode, 400 | 404 | 409 | 503>> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STORE_BUSY: 503,
  STORE_UNAVAILABLE: 503,
};

export function createWebApp(options: WebAppOptions): Hono {
  const web = new Hono();
  web.use('*', securityHeaders);
  web.use('*', webGuard(options));
  web.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(errorBody('INVALID_INPUT', 'The request body is too large.'), 413),
    }),
  );

  web.use('/api/*', async (_c, next) => {
    options.onActivity?.();
    await next();
  });
  web.post(CLAIM_PATH, async (c) => {
    const body = (await jsonBody(c.req.raw)) as { code?: unknown } | null;
    if (!options.openCodes.take(body?.code)) {
      return c.json(
        errorBody('REFUSED', 'This link was used or has expired: run `mnemo ui --open` again.'),
        401,
      );
    }
    return c.json({ token: options.token });
  });
  web.get('/api/session', (c) =>
    c.json({
      csrfToken: options.csrfToken,
      version: options.version,
      servedBy: options.servedBy,
      defaultProject: options.defaultProject,
      actor: options.actor,
      // The closed vocabularies the page filters by, from the one place that defines them.
      vocabulary: { kinds: MEMORY_KINDS, origins: ORIGIN_CLASSES },
    }),
  );
  web.get('/api/projects', async (c) => {
    const groups = await options.app.store.countMemoryGroups(
      { reader: options.reader },
      { by: 'projectKey', limit: MAX_PROJECTS },
    );
    return c.json({
      projects: groups.map((g) => ({ key: g.key ?? '', count: g.count })),
      defaultProject: options.defaultProject,
    });
  });
  for (const routes of [
    searchRoutes,
    memoryRoutes,
    editRoutes,
    reviewRoutes,
    ledgerRoutes,
    dashboardRoutes,
    projectPageRoutes,
    sessionRoutes,
  ]) {
    web.route('/api', routes(options));
  }
  web.all('/api/*', (c) => c.json(errorBody('NOT_FOUND', 'No such API route.'), 404));

  web.get('*', (c) => {
    // Client-side routes live in the fragment, so every page is `/`; other paths are assets or 404.
    const asset = options.assets.get(c.req.path);
    if (asset === undefined) return c.text('Not found', 404);
    return c.body(asset.body.slice(), 200, {
      'content-type': asset.type,
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });

  web.onError((error, c) => {
    if (isMemoryError(error)) {
      const status = STATUS[error.code];
      if (status !== undefined) return c.json(errorBody(error.code, error.message), status);
    }
    options.app.log.error('web: request failed', {
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return c.json(errorBody('INTERNAL', 'Internal error; see the mnemo log.'), 500);
  });
  return web;
}

function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
