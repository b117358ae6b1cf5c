import { retrieve } from '../../retrieval/retrieve.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryLine } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

export interface RecallCliOptions {
  limit?: number;
  project?: string;
  json?: boolean;
}

/** `mnemo recall <query...>`: the best matches in the project plus global memories. */
export async function recall(
  ctx: CliContext,
  words: readonly string[],
  options: RecallCliOptions,
): Promise<void> {
  const query = words.join(' ');
  const projectKey = projectKeyFromOption(ctx.io, options.project);
  const app = await ctx.openApp();
  const scope = { projectKey, includeGlobal: true };
  const hits = await retrieve(app, {
    query,
    scope,
    limit: options.limit ?? app.config.recallLimit,
  });
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify({ query, scope, hits }, null, 2)}\n`);
    return;
  }
  if (hits.length === 0) {
    await writeOut(
      ctx.io.stdout,
      `No memories match "${query}" in ${projectKey} or the global ones. Try other words, or \`mnemo list\` to browse.\n`,
    );
    return;
  }
  const text = hits.map((hit, i) => formatMemoryLine(hit.memory, `${i + 1}. `)).join('');
  await writeOut(ctx.io.stdout, text);
}
