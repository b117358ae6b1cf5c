import { decideReview, reviewActor, type ReviewTarget } from '../../review/review-decision.js';
import type { Scope } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

async function decide(ctx: CliContext, rawId: string, target: ReviewTarget): Promise<void> {
  const app = await ctx.openApp();
  const result = await decideReview(app, rawId, target, reviewActor('cli'));
  const { memory } = result;
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
  const lines = memories
    .map((m) => formatMemoryLine(m, '').replace(/\n/, `  origin ${m.origin}\n`))
    .join('');
  await writeOut(
    ctx.io.stdout,
    `${lines}\n${memories.length} of ${total} awaiting review. ` +
      'Decide with `mnemo approve <id>` or `mnemo reject <id>`; `mnemo explain <id>` shows why each was held.\n',
  );
}
