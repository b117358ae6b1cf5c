import { decideReview, reviewActor, type ReviewTarget } from '../../review/review-decision.js';
import type { Scope } from '../../store/store.js';
import { readCluster } from '../../write/fragment-cluster.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

async function decide(ctx: CliContext, rawId: string, target: ReviewTarget): Promise<void> {
  const app = await ctx.openApp();
  const result = await decideReview(app, rawId, target, reviewActor('cli'));
  const { memory, cluster } = result;
  if (cluster !== undefined) {
    const verb = target === 'approved' ? 'Approved' : 'Rejected';
    await writeOut(
      ctx.io.stdout,
      `Memory ${memory.id} is a member of fragment cluster ${cluster.clusterId} (${cluster.reason}; ${cluster.source}), ` +
        `reviewed as one: ${verb.toLowerCase()} all ${cluster.memberIds.length} members ` +
        `(${cluster.changed} changed): ${cluster.memberIds.join(', ')}.` +
        (target === 'approved'
          ? ' Their origin is unchanged: recall only, never injected proactively.'
          : '') +
        '\n',
    );
    return;
  }
  if (!result.changed) {
    await writeOut(ctx.io.stdout, `Memory ${memory.id} is already ${target}; nothing changed.\n`);
    return;
  }
  const verb = target === 'approved' ? 'Approved' : 'Rejected';
  let tail = '';
  if (target === 'approved') {
    tail = result.injectable
      ? ' It may now be injected proactively.'
      : ` Its origin (${memory.origin}) is unchanged: recall only, never injected proactively.`;
  }
  await writeOut(ctx.io.stdout, `${verb} ${memory.id}.${tail}\n`);
}

/** `mnemo approve <id>`: a person releases a quarantined memory. Never upgrades its origin. */
export function approve(ctx: CliContext, id: string): Promise<void> {
  return decide(ctx, id, 'approved');
}

/** `mnemo reject <id>`: a person rejects a memory; it stays for audit and leaves recall. */
export function reject(ctx: CliContext, id: string): Promise<void> {
  return decide(ctx, id, 'rejected');
}

export interface ReviewCliOptions {
  project?: string;
  limit: number;
  json?: boolean;
}

/** `mnemo review`: memories awaiting review, newest first; every project unless `--project`. */
export async function review(ctx: CliContext, options: ReviewCliOptions): Promise<void> {
  const scope: Scope | undefined =
    options.project === undefined
      ? undefined
      : { projectKey: projectKeyFromOption(ctx.io, options.project), includeGlobal: true };
  const app = await ctx.openApp();
  const filter = { scope, quarantine: ['pending'] as const };
  const memories = await app.store.listMemories({ ...filter, limit: options.limit });
  const total = await app.store.countMemories(filter);
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify({ total, memories }, null, 2)}\n`);
    return;
  }
  if (memories.length === 0) {
    await writeOut(ctx.io.stdout, 'Nothing awaits review.\n');
    return;
  }
  const lines: string[] = [];
  for (const m of memories) {
    const cluster = await readCluster(app.store, m.id);
    const label = cluster === undefined ? '' : `  fragment cluster ${cluster.clusterId}`;
    lines.push(formatMemoryLine(m, '').replace(/\n/, `  origin ${m.origin}${label}\n`));
  }
  await writeOut(
    ctx.io.stdout,
    `${lines.join('')}\n${memories.length} of ${total} awaiting review. ` +
      'Decide with `mnemo approve <id>` or `mnemo reject <id>`; `mnemo explain <id>` shows why each was held.\n',
  );
}
