import { z } from 'zod';

import { MEMORY_KINDS } from '../../core/memory.js';
import { TRUST_ORDER } from '../../core/origin/origin-class.js';
import type { MemoryFilter, MemoryStore } from '../../store/store.js';
import { readScope } from '../memory-access.js';
import { defineTool } from '../tool.js';

const countsSchema = z.record(z.string(), z.number());

/**
 * `memory_stats`: counts for this connection's project and the global memories. Store-wide numbers
 * (other projects, their paths, file size) are an administrative view for the CLI and never leave here.
 */
export const memoryStatsTool = defineTool({
  name: 'memory_stats',
  title: 'Memory statistics',
  description: [
    'Counts of what is remembered for this project: total, by kind, by origin, pinned, held for review, replaced, and how many global memories exist.',
    'Use when: deciding whether memory is worth searching at all, or reporting to the user what is stored.',
    'Do not use when: you want the memories themselves (use recall or list_memories).',
  ].join('\n'),
  input: z.object({}),
  output: z.object({
    project: z.string().nullable(),
    total: z.number(),
    global: z.number(),
    pending_review: z.number(),
    superseded: z.number(),
    by_kind: countsSchema,
    by_origin: countsSchema,
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run(ctx) {
    const { projectKey } = await readScope(ctx);
    const store = ctx.app.store;
    const project: MemoryFilter = {
      scope: { projectKey, includeGlobal: false },
      quarantine: ['none', 'pending', 'approved'],
    };
    const [total, global, pending, withSuperseded, byKind, byOrigin] = await Promise.all([
      projectKey === null ? 0 : store.countMemories(project),
      store.countMemories({ scope: { projectKey: null, includeGlobal: true } }),
      projectKey === null ? 0 : store.countMemories({ ...project, quarantine: ['pending'] }),
      projectKey === null ? 0 : store.countMemories({ ...project, includeSuperseded: true }),
      countEach(store, projectKey, MEMORY_KINDS, (kind) => ({ kinds: [kind] })),
      countEach(store, projectKey, TRUST_ORDER, (origin) => ({ origins: [origin] })),
    ]);
    const structured = {
      project: projectKey,
      total,
      global,
      pending_review: pending,
      superseded: withSuperseded - total,
      by_kind: byKind,
      by_origin: byOrigin,
    };
    const list = (counts: Record<string, number>): string =>
      Object.entries(counts)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ') || 'none';
    const text = [
      projectKey === null
        ? 'No project is open for this connection; only global memories are visible.'
        : `Project ${projectKey}: ${total} active memories (${structured.superseded} replaced, ${pending} held for review).`,
      `Global memories: ${global}.`,
      `By kind: ${list(byKind)}.`,
      `By origin: ${list(byOrigin)}.`,
    ].join('\n');
    return { structured, text };
  },
});

/** Non-zero counts of the project's active memories for each value. */
async function countEach<T extends string>(
  store: MemoryStore,
  projectKey: string | null,
  values: readonly T[],
  filterOf: (value: T) => MemoryFilter,
): Promise<Record<string, number>> {
  if (projectKey === null) return {};
  const counts = await Promise.all(
    values.map((value) =>
      store.countMemories({
        ...filterOf(value),
        scope: { projectKey, includeGlobal: false },
        quarantine: ['none', 'pending', 'approved'],
      }),
    ),
  );
  const out: Record<string, number> = {};
  values.forEach((value, index) => {
    const count = counts[index] ?? 0;
    if (count > 0) out[value] = count;
  });
  return out;
}
