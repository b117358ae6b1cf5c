import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

/** `mnemo stats`: what the store holds and where it is. */
export async function stats(ctx: CliContext, options: { json?: boolean }): Promise<void> {
  const app = await ctx.openApp();
  const stats = await app.store.stats();
  const path = app.config.databasePath;
  if (options.json === true) {
    await writeOut(ctx.io.stdout, `${JSON.stringify({ path, ...stats }, null, 2)}\n`);
    return;
  }
  const section = (title: string, counts: Record<string, number>): string => {
    const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return `${title}: -\n`;
    return `${title}:\n${entries.map(([name, n]) => `  ${String(n).padStart(6)}  ${name}\n`).join('')}`;
  };
  const size = stats.sizeBytes === null ? 'unknown' : `${stats.sizeBytes} bytes`;
  await writeOut(
    ctx.io.stdout,
    `store:       ${path}\n` +
      `schema:      v${stats.schemaVersion}\n` +
      `size:        ${size}\n` +
      `memories:    ${stats.memories} (${stats.superseded} superseded)\n` +
      section('by kind', stats.byKind) +
      section('by origin', stats.byOrigin) +
      section('by project', stats.byProject) +
      section('vectors', stats.vectors),
  );
}
