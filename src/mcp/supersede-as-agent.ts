/**
 * The write service's steps, composed for a replacement: `store.supersede` inserts the new row itself,
 * so `writeMemory` (which ends in `store.remember`) cannot be used as is. Every step that protects the
 * store runs exactly as in `writeMemory`: origin from the envelope only, claims logged, secrets and
 * invisible characters stripped before anything reads the text, privileges by origin, review state,
 * the flood budget, one counter and one log line. The novelty gate does not apply: replacing is the
 * point. A `supersedeMemory` in `write/` would make this file unnecessary.
 */
import { type Memory, type NewMemory, validateNewMemory } from '../core/memory.js';
import { explainOrigin } from '../core/origin/classify-origin.js';
import { requiresReview } from '../core/privileges/privileges.js';
import type { WriteDeps, WriteOutcome, WriteRequest } from '../write/write-memory.js';
import { countRecentWrites, createReporter, sanitiseRequest } from '../write/write-steps.js';

/** Writes `request` as the replacement of `previous`. Refusals are `reject` outcomes, like `writeMemory`. */
export async function supersedeAsAgent(
  deps: WriteDeps,
  previous: Memory,
  request: WriteRequest,
): Promise<WriteOutcome> {
  const { origin, reason } = explainOrigin(request.envelope, deps.policy.originConfig);
  const report = createReporter(deps, request, origin, reason);
  await report.claims();
  const clean = sanitiseRequest(request, report.notes);
  if (clean.kind === 'reject') return report.reject(clean.reason, clean.note);
  let input: Required<NewMemory>;
  try {
    input = validateNewMemory({
      content: clean.content,
      projectKey: request.projectKey,
      kind: request.kind ?? previous.kind,
      tags: clean.tags,
      // Neither pinning nor global visibility carries over: both are privileges of the new origin.
      visibility: 'project',
      pinned: false,
      origin,
      originTool: clean.originTool,
      sessionId: request.sessionId ?? null,
      tainted: origin === 'agent_tainted',
      quarantine: requiresReview(origin) ? 'pending' : 'none',
      redactions: clean.redactions,
      gateReason: 'novel',
    });
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'INVALID_INPUT') {
      return report.reject('invalid_input', error.message);
    }
    throw error;
  }
  if (input.quarantine === 'pending') report.notes.push('held for review (quarantine pending)');
  const recent = await countRecentWrites(deps, input, origin);
  if (recent !== undefined && !recent.allowed) {
    return report.reject(
      'flood_budget',
      `write budget for origin ${origin} spent (${recent.count} in ${deps.policy.floodLimit.windowMinutes} min)`,
    );
  }
  const { current } = await deps.store.supersede(previous.id, input);
  report.notes.push(`replaces ${previous.id}, kept in history`);
  return report.store(current, 'novel');
}
