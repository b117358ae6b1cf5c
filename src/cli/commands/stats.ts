import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';

/** Days of telemetry `stats` shows, today included. */
export const COUNTER_DAYS = 7;

/**
 * `mnemo stats`: what the store holds and where it is, plus the write telemetry of the last
 * {@link COUNTER_DAYS} days (stored, merged, rejected by reason, claims ignored...).
 */
export async function stats(ctx: CliContext, options: { json?: boolean }): Promise<void> {
  const app = await ctx.openApp();
  // Skips counted by hooks that never opened the store are added first, so the totals are current.
  const { foldTallies } = await import('../../spool/spool-tally.js');
  await foldTallies(app);
  const stats = await app.store.stats();
  const { backend, location, notes } = app.store.description;
  const since = new Date(app.clock.now().getTime() - (COUNTER_DAYS - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const rows = await app.store.readCounters(since);
  const totals: Record<string, number> = {};
  for (const row of rows) totals[row.name] = (totals[row.name] ?? 0) + row.value;
  if (options.json === true) {
    const counters = { since, totals, days: rows };
    const described = { backend, path: location, notes };
    await writeOut(
      ctx.io.stdout,
      `${JSON.stringify({ ...described, ...stats, counters }, null, 2)}\n`,
    );
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
    `backend:     ${backend}\n` +
      `store:       ${location}\n` +
      notes.map((note) => `             ${note}\n`).join('') +
      `schema:      v${stats.schemaVersion}\n` +
      `size:        ${size}\n` +
      `memories:    ${stats.memories} (${stats.superseded} superseded)\n` +
      section('by kind', stats.byKind) +
      section('by origin', stats.byOrigin) +
      section('by project', stats.byProject) +
      section('vectors', stats.vectors) +
      section(`counters since ${since}`, totals),
  );
}
