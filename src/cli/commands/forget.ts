import { assertMemoryId } from '../../core/memory.js';
import { notFound } from '../../review/explain-memory.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

/** `mnemo forget <id>`: deletes one memory with its index entries and vector. */
export async function forget(ctx: CliContext, rawId: string): Promise<void> {
  const id = assertMemoryId(rawId);
  const app = await ctx.openApp();
  if (!(await app.store.forget(id))) throw notFound(id);
  app.log.info('forgot', { id });
  await writeOut(ctx.io.stdout, `Forgot ${id}\n`);
}
