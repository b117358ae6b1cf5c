import { MemoryError } from '../../core/errors.js';
import { assertMemoryId, type Memory } from '../../core/memory.js';
import type { MemoryStore } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryDetail } from '../format.js';

/** Fetches a memory by id or throws NOT_FOUND with the next step. */
export async function getExistingMemory(store: MemoryStore, rawId: string): Promise<Memory> {
  const id = assertMemoryId(rawId);
  const memory = await store.getMemory(id);
  if (memory === undefined) throw notFound(id);
  return memory;
}

export function notFound(id: string): MemoryError {
  return new MemoryError('NOT_FOUND', `No memory with id ${id}. Run \`mnemo list\` to see ids.`);
}

/** `mnemo get <id>`: one memory in full, superseded or not. */
export async function get(ctx: CliContext, id: string, options: { json?: boolean }): Promise<void> {
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  await writeOut(
    ctx.io.stdout,
    options.json === true ? `${JSON.stringify(memory, null, 2)}\n` : formatMemoryDetail(memory),
  );
}
