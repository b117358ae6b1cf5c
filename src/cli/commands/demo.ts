import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { MemoryKind, Visibility } from '../../core/memory.js';
import { resolveProjectKey } from '../../project/project-key.js';
import { retrieve } from '../../retrieval/retrieve.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { scopeLabel, snippet } from '../format.js';

interface DemoMemory {
  project: 'webshop' | 'billing-api';
  kind: MemoryKind;
  visibility?: Visibility;
  tags: string[];
  content: string;
}

const MEMORIES: readonly DemoMemory[] = [
  {
    project: 'webshop',
    kind: 'decision',
    tags: ['build'],
    content:
      'Use pnpm, not npm: the lockfile is pnpm-lock.yaml and CI runs `pnpm install --frozen-lockfile`.',
  },
  {
    project: 'webshop',
    kind: 'fix',
    tags: ['tests', 'flaky'],
    content:
      'Flaky checkout e2e test: wait for the /api/cart response instead of a fixed sleep (tests/checkout.spec.ts).',
  },
  {
    project: 'webshop',
    kind: 'error',
    tags: ['postgres'],
    content:
      '`ECONNREFUSED 127.0.0.1:5432` when running the tests means the dev Postgres container is down: run `docker compose up -d db`.',
  },
  {
    project: 'webshop',
    kind: 'note',
    tags: ['assets'],
    content:
      'Product images are served from the CDN bucket; never commit files under public/img/products.',
  },
  {
    project: 'billing-api',
    kind: 'decision',
    tags: ['money'],
    content:
      'Money is stored as integer cents (bigint), never floats; conversions live in src/money.ts.',
  },
  {
    project: 'billing-api',
    kind: 'fix',
    tags: ['stripe'],
    content:
      'Stripe webhook signature failures came from parsing the body as JSON before verifying it; verify the raw body.',
  },
  {
    project: 'billing-api',
    kind: 'error',
    tags: ['postgres', 'migrations'],
    content:
      'Migration 0042 fails on Postgres 13 (`NULLS NOT DISTINCT` is unsupported); the minimum supported Postgres is 15.',
  },
  {
    project: 'billing-api',
    kind: 'preference',
    visibility: 'global',
    tags: ['git'],
    content:
      'Commit messages: imperative mood, subject under 72 characters, explain why in the body.',
  },
];

const QUERIES: readonly { project: DemoMemory['project']; query: string; why: string }[] = [
  { project: 'webshop', query: 'failing tests', why: 'two webshop memories mention tests' },
  {
    project: 'webshop',
    query: 'postgres',
    why: 'billing-api memories stay in their own project',
  },
  { project: 'billing-api', query: 'postgres migration', why: 'the billing-api error' },
  {
    project: 'webshop',
    query: 'commit message style',
    why: 'a global preference, seen from every project',
  },
];

/**
 * `mnemo demo`: remembers a handful of realistic memories in two projects plus one global, then recalls
 * them. It never touches the user's store: it uses a new temporary home unless `--home` names one.
 * Re-running it on the same home dedupes instead of duplicating.
 */
export async function demo(ctx: CliContext, options: { home?: string }): Promise<void> {
  const home =
    options.home === undefined
      ? mkdtempSync(join(tmpdir(), 'mnemo-demo-'))
      : resolve(ctx.io.cwd, options.home);
  const out = (text: string) => writeOut(ctx.io.stdout, text);
  await out(`mnemo demo: a scratch store in ${home}\n\n`);
  const app = await ctx.openApp({ home });

  const keys = new Map<string, string>();
  for (const project of ['webshop', 'billing-api'] as const) {
    // Real directories, because the project key is a canonical path like any other.
    const dir = join(home, 'projects', project);
    mkdirSync(dir, { recursive: true });
    keys.set(project, resolveProjectKey(dir));
  }
  const keyOf = (project: string): string => keys.get(project) ?? project;

  let created = 0;
  for (const memory of MEMORIES) {
    const outcome = await app.store.remember({
      content: memory.content,
      projectKey: keyOf(memory.project),
      visibility: memory.visibility ?? 'project',
      kind: memory.kind,
      tags: memory.tags,
      origin: 'user',
      originTool: 'cli-demo',
    });
    if (outcome.created) created += 1;
    await out(
      `  remembered  ${memory.kind.padEnd(10)} ${scopeLabel(outcome.memory).padEnd(12)} ${snippet(memory.content, 70)}\n`,
    );
  }
  const deduped = MEMORIES.length - created;
  await out(
    `\n${created} new memories${deduped > 0 ? `, ${deduped} already there (deduplicated)` : ''}.\n`,
  );

  for (const { project, query, why } of QUERIES) {
    const hits = await retrieve(app, {
      query,
      scope: { projectKey: keyOf(project), includeGlobal: true },
      limit: 3,
    });
    await out(`\nrecall "${query}" in ${project}  (${why})\n`);
    if (hits.length === 0) await out('  (no match)\n');
    for (const [i, hit] of hits.entries()) {
      const m = hit.memory;
      await out(`  ${i + 1}. [${m.kind}, ${scopeLabel(m)}] ${snippet(m.content, 200)}\n`);
    }
  }
  await out(
    `\nExplore it yourself:\n  MNEMO_HOME=${home} mnemo list --all\n` +
      `  MNEMO_HOME=${home} mnemo recall stripe webhook --project ${join(home, 'projects', 'billing-api')}\n` +
      (options.home === undefined ? `Delete ${home} when you are done.\n` : ''),
  );
}
