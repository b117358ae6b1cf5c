/**
 * The write service: the single path every writer (CLI, hooks, MCP, web) goes through. It classifies the
 * origin from the channel, sanitises the text before anything else sees it, applies the privilege
 * allowlists, runs the write gate and the flood budget, anchors the stored text to the files it cites
 * (whichever process writes: hook, engine drain, CLI, MCP), and records one telemetry counter per
 * outcome. Edges call {@link writeMemory}; nothing else calls `store.remember` for new content.
 */
import { detectCues, NO_CUES } from '../core/cues/detect-cues.js';
import { describeSource } from '../core/gate/decide-cluster.js';
import { decideGate, type GateCandidate, resolveExactDuplicate } from '../core/gate/decide-gate.js';
import { kindFromLabel } from '../core/kind-prefix.js';
import { type Memory, type NewMemory, validateNewMemory } from '../core/memory.js';
import { type Channel, explainOrigin } from '../core/origin/classify-origin.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import { decideBypass, privilegesFor, requiresReview } from '../core/privileges/privileges.js';
import type { MemoryStore } from '../store/store.js';
import { clusterNetworkFragment } from './fragment-cluster.js';
import { anchorsFor } from './write-anchors.js';
import {
  countRecentWrites,
  createReporter,
  type Reporter,
  sanitiseRequest,
} from './write-steps.js';
import type { RejectReason, WriteDeps, WriteOutcome, WriteRequest } from './write-types.js';

export {
  REJECT_REASONS,
  type RejectReason,
  type WriteDeps,
  type WriteOutcome,
  type WritePolicy,
  type WriteRequest,
} from './write-types.js';

/** How many nearest memories of the project the near-duplicate check reads. */
const CANDIDATE_LIMIT = 5;

/**
 * Writes one memory through the gate. Never throws for a refused write (that is a `reject` outcome with a
 * reason); throws only what the store raises (STORE_BUSY, STORE_UNAVAILABLE...), so edges can spool or
 * fail open. The content is never logged and never appears in `notes`.
 */
export async function writeMemory(deps: WriteDeps, request: WriteRequest): Promise<WriteOutcome> {
  const admitted = await admitWrite(deps, request);
  if (admitted.kind === 'reject') return admitted.outcome;
  const { input, origin, privileges, report } = admitted;

  // Cues are read only for allowlisted origins, so no other origin's outcome can depend on them.
  const cues = privileges.noveltyBypass
    ? detectCues(input.content, { detectors: deps.policy.detectors })
    : NO_CUES;
  const bypass = decideBypass({
    origin,
    cues,
    // A malformed channel is no human channel, so a force through it is never honoured.
    force: request.force === true ? { channel: report.channel as Channel } : undefined,
  });
  const candidates = bypass.bypass ? [] : await nearest(deps.store, input);
  const decision = decideGate({
    content: input.content,
    origin,
    bypass,
    candidates,
    threshold: deps.policy.nearDuplicateThreshold,
  });

  if (decision.action === 'reject') {
    return report.reject(
      'previously_rejected',
      `near-duplicate (${decision.similarity.toFixed(2)}) of memory ${decision.targetId}, which a person rejected`,
    );
  }
  if (decision.action === 'merge') {
    const memory = await deps.store.recordMerge(decision.targetId, {
      origin,
      channel: report.channel,
      originTool: input.originTool,
      sessionId: input.sessionId,
      similarity: decision.similarity,
      redactions: input.redactions,
    });
    return report.merge(memory, 'near_duplicate', decision.similarity);
  }
  if (decision.keptApartFrom !== undefined) {
    report.notes.push(
      `near-duplicate of less trusted memory ${decision.keptApartFrom.id} kept apart`,
    );
  }
  const gated = { ...input, gateReason: decision.reason };
  const anchors = {
    ...anchorsFor(deps, gated.content, request.workingDir),
    ...(request.capturedAt === undefined ? {} : { capturedAt: request.capturedAt }),
  };
  const { memory, created } = await deps.store.remember(gated, anchors);
  if (created) {
    if (origin === 'network') await clusterFragment(deps, memory, report.notes);
    return report.store(memory, decision.reason);
  }
  switch (resolveExactDuplicate(origin, memory)) {
    case 'merge':
      return report.merge(memory, 'exact_duplicate');
    case 'reject':
      return report.reject(
        'previously_rejected',
        `same text as memory ${memory.id}, which a person rejected`,
      );
    case 'supersede': {
      const { current } = await deps.store.supersede(memory.id, gated, anchors);
      report.notes.push(`replaced less trusted copy ${memory.id} (origin ${memory.origin})`);
      return report.store(current, decision.reason);
    }
  }
}

/** A write that passed every step before the gate, or the outcome that refused it. */
export type Admission =
  | { kind: 'reject'; outcome: WriteOutcome }
  | {
      kind: 'admitted';
      input: Required<NewMemory>;
      origin: OriginClass;
      privileges: ReturnType<typeof privilegesFor>;
      report: Reporter;
    };

/**
 * The steps every write shares before its store call: origin from the envelope only, claims logged,
 * secrets and invisible characters stripped before anything reads the text, privileges by origin (pinning
 * and global visibility downgraded with a note), review state and the flood budget. Used by
 * {@link writeMemory} and by `supersedeMemory`, so a replacement is protected exactly like a new memory.
 */
export async function admitWrite(deps: WriteDeps, request: WriteRequest): Promise<Admission> {
  const { origin, reason: originReason } = explainOrigin(
    request.envelope,
    deps.policy.originConfig,
  );
  const report: Reporter = createReporter(deps, request, origin, originReason);
  const refuse = async (reason: RejectReason, note: string): Promise<Admission> => ({
    kind: 'reject',
    outcome: await report.reject(reason, note),
  });
  await report.claims();

  const clean = sanitiseRequest(request, report.notes);
  if (clean.kind === 'reject') return refuse(clean.reason, clean.note);

  const privileges = privilegesFor(origin);
  let visibility = request.visibility ?? 'project';
  if (visibility === 'global' && !privileges.promoteGlobal) {
    visibility = 'project';
    report.notes.push(`global visibility refused for origin ${origin}; stored in the project`);
  }
  const pinned = request.pinned === true && privileges.pin;
  if (request.pinned === true && !pinned) {
    report.notes.push(`pinning refused for origin ${origin}`);
  }
  let input: Required<NewMemory>;
  try {
    input = validateNewMemory({
      content: clean.content,
      projectKey: request.projectKey,
      kind: request.kind ?? (privileges.labelKind ? kindFromLabel(clean.content) : undefined),
      tags: clean.tags,
      visibility,
      pinned,
      origin,
      originTool: clean.originTool,
      sessionId: request.sessionId ?? null,
      tainted: origin === 'agent_tainted',
      quarantine: requiresReview(origin) ? 'pending' : 'none',
      redactions: clean.redactions,
      sourceUrl: clean.sourceUrl,
    });
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'INVALID_INPUT') {
      return refuse('invalid_input', error.message);
    }
    throw error;
  }
  if (input.quarantine === 'pending') report.notes.push('held for review (quarantine pending)');

  const recent = await countRecentWrites(deps, input, origin);
  if (recent !== undefined && !recent.allowed) {
    return refuse(
      'flood_budget',
      `write budget for origin ${origin} spent (${recent.count} in ${deps.policy.floodLimit.windowMinutes} min)`,
    );
  }

  return { kind: 'admitted', input, origin, privileges, report };
}

/**
 * The W8 fragment-cluster step for a network memory just stored. A failure here leaves the memory
 * stored and pending (held by its origin either way): it is logged and noted, never thrown, so the
 * caller does not spool a write that already happened.
 */
async function clusterFragment(deps: WriteDeps, memory: Memory, notes: string[]): Promise<void> {
  try {
    const decision = await clusterNetworkFragment(deps.store, memory);
    if (!decision.cluster) return;
    notes.push(
      `quarantined as fragment cluster ${decision.clusterId} (${decision.memberIds.length} directive-shaped fragments from ${describeSource(decision.source)})`,
    );
    deps.log.warn('write: fragment cluster quarantined', {
      clusterId: decision.clusterId,
      members: decision.memberIds.length,
      memoryId: memory.id,
    });
  } catch (error) {
    notes.push('the fragment-cluster check failed; the memory stays held for review');
    deps.log.warn('write: fragment-cluster check failed', {
      memoryId: memory.id,
      error: String(error),
    });
  }
}

async function nearest(store: MemoryStore, input: Required<NewMemory>): Promise<GateCandidate[]> {
  const hits = await store.searchLexical(input.content, {
    scope: { projectKey: input.projectKey, includeGlobal: false },
    limit: CANDIDATE_LIMIT,
    quarantine: ['none', 'pending', 'approved', 'rejected'],
  });
  if (hits.length === 0) return [];
  return store.getMemories(hits.map((hit) => hit.id));
}
