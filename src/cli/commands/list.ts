import type { Scope } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

export interface ListCliOptions {
  project?: string;
  all?: boolean;
  limit: number;
  json?: boolean;
}

/** `mnemo list`: newest memories of the project plus global ones, or of every project with --all. */
export async function list(ctx: CliContext, options: ListCliOptions): Promise<void> {
  const scope: Scope | undefined =
    options.all === true
      ? undefined
      : { projectKey: projectKeyFromOption(ctx.io, options.project), includeGlobal: true };
  const app = await ctx.openApp();
  const memories = await app.store.listMemories({ scope, limit: options.limit });
  const total = await app.store.countMemories({ scope });
  if (options.json === true) {
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ scope: scope ?? null, total, memories }, null, 2)}\n`,
    );
    return;
  }
  const where = scope === undefined ? 'all projects' : `${scope.projectKey} and global`;
  if (memories.length === 0) {
    await writeOut(
      ctx.io.stdout,
      `No memories in ${where}. Add one with \`mnemo remember <text>\`.\n`,
    );
    return;
  }
  const lines = memories.map((memory) => formatMemoryLine(memory)).join('');
  await writeOut(ctx.io.stdout, `${lines}\nShowing ${memories.length} of ${total} (${where}).\n`);
}
