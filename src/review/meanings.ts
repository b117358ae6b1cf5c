/**
 * What a memory's origin, gate reason and injection status mean, in words a person (web viewer) or a
 * model (MCP `explain_memory`) reads. One table per vocabulary, so every surface says the same thing.
 */
import type { NotInjectableReason } from '../core/gate/injection-eligibility.js';
import type { GateReason, Memory } from '../core/memory.js';
import type { OriginClass } from '../core/origin/origin-class.js';

export const ORIGIN_MEANING: Readonly<Record<OriginClass, string>> = {
  user: 'written by a person through a human channel (CLI, web UI or their own prompt)',
  agent:
    "saved by the agent with remember in a session that had read no untrusted content since the user's last prompt",
  local_edit: 'captured from a file edit made by the agent',
  local_read: 'captured from a file read (third-party text)',
  local_exec: 'captured from command output (may carry network content)',
  agent_tainted:
    'saved by the agent after untrusted (network or unknown) content entered its session, or when the session could not be identified',
  network: 'captured from web or network tool output',
  unknown: 'from an unrecognised channel; it grants nothing',
};

export const GATE_MEANING: Readonly<Record<GateReason, string>> = {
  novel: 'stored because it was new (passed the novelty gate)',
  bypass_cue: 'stored past the novelty gate: a trusted origin with an error/decision cue',
  forced: 'forced in by a person through a human channel',
  imported: 'imported from an export',
  legacy: 'written before the write gate existed',
};

/** Why a memory is withheld: the injection gate's reasons and the staleness one (every cited file gone). */
export type WithheldKey = NotInjectableReason | 'cited_files_deleted';

export const WITHHELD_MEANING: Readonly<Record<WithheldKey, string>> = {
  origin_not_allowlisted:
    'its origin is not on the allowlist for proactive injection (user and untainted agent only); it is shown only when recalled explicitly',
  tainted: 'it was written in a tainted session',
  quarantine_pending:
    'it is held for review; only a person can approve it (`mnemo approve <id>` or the web UI)',
  quarantine_rejected: 'a person rejected it',
  superseded: 'a newer memory replaced it',
  cited_files_deleted:
    'every file it cites was deleted since it was written; if it still holds, reverify_memory re-anchors it',
};

/** What the write gate decided about a memory, with its meaning. */
export function gateView(memory: Memory): {
  reason: GateReason;
  meaning: string;
  redactions: number;
  quarantine: Memory['quarantine'];
} {
  return {
    reason: memory.gateReason,
    meaning: GATE_MEANING[memory.gateReason] ?? 'unrecorded',
    redactions: memory.redactions,
    quarantine: memory.quarantine,
  };
}

/** Why a memory is withheld from proactive injection, each reason with its meaning. */
export function withheldView(
  reasons: readonly WithheldKey[],
): { reason: WithheldKey; meaning: string }[] {
  return reasons.map((reason) => ({ reason, meaning: WITHHELD_MEANING[reason] }));
}
