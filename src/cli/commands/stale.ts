import { resolve } from 'node:path';

import { reportAnchors } from '../../anchors/anchor-report.js';
import { checkStaleness, scopeOf } from '../../anchors/check-staleness.js';
import { fullBudget } from '../../anchors/verify-anchors.js';
import type { App } from '../../app/open-app.js';
import type { StalenessStatus } from '../../core/anchors/staleness.js';
import { STALENESS_STATUSES } from '../../core/anchors/staleness.js';
import type { Memory } from '../../core/memory.js';
import { formatAnchors } from '../anchor-text.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

export interface StaleCliOptions {
  project?: string;
  json?: boolean;
}

/** Memories read per page while listing a project. */
const PAGE = 500;

/** Every active memory written in the project (its own and the global ones it wrote), newest first. */
async function projectMemories(app: App, projectKey: string): Promise<Memory[]> {
  const all: Memory[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await app.store.listMemories({
      scope: { projectKey, includeGlobal: true },
      limit: PAGE,
      offset,
    });
    all.push(...page.filter((memory) => memory.projectKey === projectKey));
    if (page.length < PAGE) return all;
  }
}

/**
 * `mnemo stale [--project <dir>] [--json]`: checks every memory of the project against its working tree
 * (backfilling the anchors of memories written before anchors existed) and lists the stale ones with
 * what happened to each cited file, and the ones session start withholds because every file they cite
 * was deleted. Exit 0 whatever it finds: staleness is a quality signal, not an error.
 */
export async function stale(ctx: CliContext, options: StaleCliOptions): Promise<void> {
  const projectKey = projectKeyFromOption(ctx.io, options.project);
  const dir = resolve(ctx.io.cwd, options.project ?? '.');
  const app = await ctx.openApp();
  const memories = await projectMemories(app, projectKey);
  const scope = scopeOf(projectKey, dir, fullBudget());
  const result = await checkStaleness(app, scope, memories);
  const counts = Object.fromEntries(STALENESS_STATUSES.map((s) => [s, 0])) as Record<
    StalenessStatus,
    number
  >;
  for (const memory of memories) counts[result.byId.get(memory.id)?.status ?? 'unchecked'] += 1;
  const flagged = memories.filter((memory) => {
    const status = result.byId.get(memory.id)?.status;
    return status === 'stale' || status === 'gone';
  });
  // The flagged ones in full; their checks were just cached, so this reads no file twice.
  const reports = await Promise.all(
    flagged.map(async (memory) => ({
      memory,
      report: await reportAnchors(app, memory, projectKey, dir),
    })),
  );
  if (options.json === true) {
    const body = {
      project: projectKey,
      checkedIn: scope.root?.dir ?? null,
      memories: memories.length,
      backfilled: result.backfilled,
      counts,
      stale: reports.map(({ memory, report }) => ({
        id: memory.id,
        kind: memory.kind,
        origin: memory.origin,
        createdAt: memory.createdAt,
        ...report,
      })),
    };
    await writeOut(ctx.io.stdout, `${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const where = scope.root?.dir ?? dir;
  let text =
    `${memories.length} memories of ${projectKey} checked against ${where}: ` +
    `${counts.stale} stale, ${counts.gone} with every cited file deleted (withheld from session start), ` +
    `${counts.fresh} fresh, ${counts.unanchored} citing no file, ${counts.pending} not anchored yet` +
    `${result.backfilled > 0 ? `; ${result.backfilled} anchored from history just now` : ''}.\n`;
  if (reports.length === 0) {
    await writeOut(ctx.io.stdout, `${text}Nothing is stale.\n`);
    return;
  }
  text += '\n';
  reports.forEach(({ memory, report }, i) => {
    text += formatMemoryLine(memory, `${i + 1}. `);
    text += formatAnchors(report, ' '.repeat(`${i + 1}. `.length + 4));
  });
  text +=
    '\n`mnemo reverify <id>` re-anchors a memory that still holds; `mnemo forget <id>` drops one that does not.\n';
  await writeOut(ctx.io.stdout, text);
}
