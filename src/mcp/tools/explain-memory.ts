import { z } from 'zod';

import { reportAnchors } from '../../anchors/anchor-report.js';
import { injectionEligibility } from '../../core/gate/injection-eligibility.js';
import { parseOriginClass, trustBand } from '../../core/origin/origin-class.js';
import { flattenNote } from '../../core/render/sanitise-text.js';
import { supersedeHistory } from '../../review/explain-memory.js';
import { gateView, ORIGIN_MEANING, withheldView } from '../../review/meanings.js';
import { type ClusterInfo, readCluster } from '../../write/fragment-cluster.js';
import { visibleMemory } from '../memory-access.js';
import { renderForModel } from '../render-for-model.js';
import { frameSchema, memoryIdArg, memoryViewSchema } from '../schemas.js';
import { defineTool } from '../tool.js';

/** `explain_memory`: why a memory has its origin, how the gate decided, and why it is injected or not. */
export const explainMemoryTool = defineTool({
  name: 'explain_memory',
  title: 'Explain a memory',
  description: [
    'Explain one memory: where it came from (origin, tool, session taint, trust band), how the write gate decided, its replacement history and audit trail, the files it cites and whether each changed, moved or was deleted since (its code anchors), the fragment cluster it is held in with its other members (directive-shaped web fragments from one source, reviewed by a person as one), and whether it is injected into new sessions automatically or withheld, with the reasons.',
    'Use when: a memory you expected is missing from the session context, a memory looks suspicious, or the user asks why something is (not) remembered.',
    'Do not use when: you just need the text (use get_memory).',
  ].join('\n'),
  input: z.object({ id: memoryIdArg }),
  output: z.object({
    frame: frameSchema,
    memory: memoryViewSchema,
    origin: z.object({
      class: z.string(),
      meaning: z.string(),
      trust_band: z.string(),
      tool: z.string().nullable(),
      session: z.string().nullable(),
      tainted: z.boolean(),
    }),
    gate: z.object({
      reason: z.string(),
      meaning: z.string(),
      redactions: z.number(),
      quarantine: z.string(),
    }),
    injection: z.object({
      eligible: z.boolean(),
      pinned: z.boolean(),
      pinnable: z.boolean(),
      withheld: z.array(z.object({ reason: z.string(), meaning: z.string() })),
    }),
    anchors: z.object({
      status: z.string(),
      label: z.string().nullable(),
      how: z.string().nullable(),
      files: z.array(
        z.object({
          path: z.string(),
          kind: z.string(),
          state: z.string().nullable(),
          description: z.string(),
        }),
      ),
    }),
    history: z.object({
      superseded_by: z.string().nullable(),
      replaced: z.array(z.object({ id: z.string(), origin: z.string() })),
    }),
    cluster: z
      .object({
        id: z.string(),
        reason: z.string(),
        source: z.string(),
        member_ids: z.array(z.string()),
        reviewed_as_one: z.literal(true),
      })
      .nullable(),
    audit: z.array(z.object({ at: z.string(), action: z.string() })),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run(ctx, args) {
    const memory = await visibleMemory(ctx, args.id);
    const origin = parseOriginClass(memory.origin);
    const [replaced, audit, anchors, cluster] = await Promise.all([
      supersedeHistory(ctx.app.store, memory).then((history) =>
        history.replaced.map((m) => ({ id: m.id, origin: parseOriginClass(m.origin) })),
      ),
      ctx.app.store.auditTrail(memory.id),
      reportAnchors(ctx.app, memory, await ctx.projectKey(), await ctx.projectDir()),
      readCluster(ctx.app.store, memory.id),
    ]);
    const eligibility = injectionEligibility(memory);
    const reasons = [
      ...eligibility.reasons,
      ...(anchors.status === 'gone' ? (['cited_files_deleted'] as const) : []),
    ];
    // The stale label names paths from the memory and from git: it travels inside the frame only.
    const staleness = new Map([
      [memory.id, { status: anchors.status, anchors: [], label: anchors.label ?? undefined }],
    ]);
    const rendered = renderForModel(ctx, [memory], `explanation of memory ${memory.id}`, staleness);
    const [view] = rendered.json.memories;
    if (view === undefined) throw new Error('the renderer dropped the only memory');
    const withheld = withheldView(reasons);
    const structured = {
      frame: rendered.json.frame,
      memory: view,
      origin: {
        class: origin,
        meaning: ORIGIN_MEANING[origin],
        trust_band: trustBand(origin),
        tool: memory.originTool,
        session: memory.sessionId,
        tainted: memory.tainted,
      },
      gate: gateView(memory),
      injection: {
        eligible: reasons.length === 0,
        pinned: memory.pinned,
        // Pinning widens injection, so only what is injectable already may be pinned (pin_memory).
        pinnable: eligibility.eligible,
        withheld,
      },
      anchors: {
        status: anchors.status,
        label: anchors.label === null ? null : (flattenNote(anchors.label) ?? null),
        how: anchors.how,
        files: anchors.anchors.map((line) => ({
          path: flattenNote(line.path) ?? '',
          kind: line.kind,
          state: line.verdict?.state ?? null,
          description: flattenNote(line.description) ?? '',
        })),
      },
      history: { superseded_by: memory.supersededBy, replaced },
      cluster: cluster === undefined ? null : clusterView(cluster),
      audit: audit.map((entry) => ({ at: entry.at, action: entry.action })),
    };
    const text = [
      rendered.text,
      `Origin: ${origin} (${trustBand(origin)} trust) — ${ORIGIN_MEANING[origin]}.` +
        (memory.originTool === null ? '' : ` Channel/tool: ${memory.originTool}.`),
      `Gate: ${structured.gate.meaning}; ${memory.redactions} secret(s) redacted; review state ${memory.quarantine}.`,
      reasons.length === 0
        ? `Injected into new sessions when relevant${memory.pinned ? ' (pinned)' : ''}${anchors.status === 'stale' ? ', labelled stale and ranked lower' : ''}.`
        : `Withheld from automatic injection: ${withheld.map((w) => w.meaning).join('; ')}.`,
      anchorsText(anchors),
      structured.cluster === null ? '' : clusterText(structured.cluster),
      replaced.length === 0
        ? ''
        : `Replaced: ${replaced.map((r) => `${r.id} (${r.origin})`).join(' ← ')}.`,
      `Audit: ${structured.audit.map((a) => `${a.at} ${a.action}`).join(', ') || 'none'}.`,
    ].filter((line) => line !== '');
    return { structured, text: text.join('\n') };
  },
});

/**
 * The cluster as the model reads it. Its source names a page host or a session and tool (channel
 * facts, but written by whoever served the page), so it is flattened and neutralised like a note.
 */
function clusterView(cluster: ClusterInfo) {
  return {
    id: cluster.clusterId,
    reason: flattenNote(cluster.reason) ?? '',
    source: flattenNote(cluster.source) ?? '',
    member_ids: cluster.memberIds,
    reviewed_as_one: true as const,
  };
}

function clusterText(cluster: ReturnType<typeof clusterView>): string {
  return (
    `Fragment cluster ${cluster.id}: ${cluster.reason} (${cluster.source}); reviewed as one: ` +
    "a person's approval or rejection of any member moves every member. " +
    `Members: ${cluster.member_ids.join(', ')}.`
  );
}

/** One line on the memory's code anchors. */
function anchorsText(anchors: Awaited<ReturnType<typeof reportAnchors>>): string {
  switch (anchors.status) {
    case 'stale':
    case 'gone':
      return 'Stale: a file it cites changed, moved or was deleted (the note in its header says which). Check the code before relying on it; reverify_memory re-anchors it if it still holds.';
    case 'fresh':
      return `The ${anchors.anchors.filter((a) => a.kind === 'file').length} file(s) it cites are unchanged.`;
    case 'unanchored':
      return 'It cites no file that existed when it was written, so it cannot go stale.';
    case 'pending':
      return 'Its cited files have not been anchored yet (written before anchors existed).';
    case 'unchecked':
      return 'Its cited files were not checked from this project.';
  }
}
