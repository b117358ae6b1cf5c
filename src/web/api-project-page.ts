/**
 * The project page in the viewer: `GET /api/project-page` shows the page as `mnemo pages write` would
 * write it and, when the project is checked out where the viewer runs, the plan of a person's edits of
 * its file; `POST /api/project-page/write` writes it; `POST /api/project-page/apply` applies the plan.
 * The viewer is a human channel (token, Origin and CSRF checked by the guard), so applied edits are the
 * person's own memories, as with `mnemo pages read --apply`. An apply names the digest of the file the
 * person reviewed and is refused (409) when the file changed since, so what is applied is what was shown.
 */
import { createHash } from 'node:crypto';
import { basename, relative } from 'node:path';

import { Hono } from 'hono';
import { z } from 'zod';

import { MemoryError } from '../core/errors.js';
import { applyPageEdits } from '../pages/apply-page-edits.js';
import { locatePageFile } from '../pages/page-file.js';
import {
  buildProjectPage,
  inspectPage,
  type PageState,
  writeProjectPage,
} from '../pages/project-page.js';
import { localRootOf } from '../project/project-key.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { jsonBody } from './api-review.js';
import { planView, type ProjectPageView } from './page-view.js';
import { parseQuery, type WebContext } from './web-context.js';

const project = z.string().min(1).max(4096);
const pageQuery = z.strictObject({ project });
const writeBody = z.strictObject({ project, force: z.boolean().optional() });
const applyBody = z.strictObject({ project, digest: z.string().regex(/^[0-9a-f]{64}$/u) });

function digestOf(state: PageState): string {
  return createHash('sha256').update(state.file.bytes).digest('hex');
}

/** The page's target where the viewer runs; undefined when the project is not checked out here. */
function targetOf(projectKey: string) {
  const root = localRootOf(projectKey);
  if (root === undefined) return undefined;
  return { projectKey, root, path: locatePageFile(root) };
}

function requireTarget(projectKey: string) {
  const target = targetOf(projectKey);
  if (target === undefined) {
    throw new MemoryError(
      'INVALID_INPUT',
      'This project is not checked out where the viewer runs, so its page file cannot be written here. Run `mnemo pages write` in the project.',
    );
  }
  return target;
}

function view(state: PageState): ProjectPageView {
  const existing: ProjectPageView['existing'] =
    state.existing.kind === 'parsed'
      ? { kind: 'parsed', plan: planView(state.existing.plan) }
      : state.existing.kind === 'malformed'
        ? { kind: 'malformed', message: state.existing.error.message }
        : { kind: 'none' };
  const { root, path } = state.target;
  return {
    project: state.target.projectKey,
    file: root === null ? basename(path) : relative(root, path),
    section: state.section,
    entries: state.page.entries.length,
    withheld: state.page.withheld.length,
    current: state.current,
    existing,
    digest: digestOf(state),
  };
}

export function projectPageRoutes(ctx: WebContext): Hono {
  const routes = new Hono();
  const deps = ctx.app;

  routes.get('/project-page', async (c) => {
    const params = parseQuery(pageQuery, c.req.query());
    const target = targetOf(params.project);
    if (target !== undefined)
      return c.json(view(await inspectPage(deps, target, { persist: false })));
    const built = await buildProjectPage(deps, params.project, null, false);
    const preview: ProjectPageView = {
      project: params.project,
      file: null,
      section: built.section,
      entries: built.page.entries.length,
      withheld: built.page.withheld.length,
      current: false,
      existing: { kind: 'none' },
      digest: null,
    };
    return c.json(preview);
  });

  routes.post('/project-page/write', async (c) => {
    const body = parseQuery(writeBody, await jsonBody(c.req.raw));
    const result = await writeProjectPage(deps, requireTarget(body.project), {
      force: body.force === true,
    });
    return c.json({
      written: result.written,
      page: view(await inspectPage(deps, result.state.target, { persist: false })),
    });
  });

  routes.post('/project-page/apply', async (c) => {
    const body = parseQuery(applyBody, await jsonBody(c.req.raw));
    const state = await inspectPage(deps, requireTarget(body.project), { persist: false });
    if (digestOf(state) !== body.digest) {
      throw new MemoryError(
        'CONFLICT',
        'The page file changed since you reviewed it; nothing was applied. Review the new plan.',
      );
    }
    const result = await applyPageEdits(writeDepsFrom(ctx.app), state, 'web');
    ctx.app.log.info('web: project page edits applied', {
      actor: ctx.actor,
      steps: result.applied.length,
    });
    return c.json({
      applied: result.applied.map((a) => ({
        action: a.step.action,
        result: a.result,
        id: a.id,
        notes: a.notes,
      })),
      written: result.written,
      page: view(await inspectPage(deps, state.target, { persist: false })),
    });
  });
  return routes;
}
