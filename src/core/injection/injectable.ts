/**
 * The one gate every proactively injected memory passes, for session start and prompt recall alike: the
 * session's scope (this project's memories plus global ones, never another project's; threat model R4),
 * the origin allowlist and review state (`injectionEligibility`, R1/R5/W5), the session's ledger
 * (nothing twice in one session, R9), and the memory's anchors (R5: only a memory whose every cited
 * file was deleted is withheld; a stale one is injected with a label). Decided by channel and state
 * only, never by the text. Pure.
 */
import { isStale, type MemoryStaleness } from '../anchors/staleness.js';
import { injectionEligibility, type NotInjectableReason } from '../gate/injection-eligibility.js';
import type { Memory, MemoryId } from '../memory.js';
import { type OriginClass, TRUST_ORDER } from '../origin/origin-class.js';
import { type PrivilegeOptions, privilegesFor } from '../privileges/privileges.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import type { RenderItem } from '../render/render-memories.js';

/** Why a candidate is not injected into this session. */
export type WithheldReason =
  | NotInjectableReason
  | 'out_of_scope'
  | 'already_injected'
  | 'cited_files_deleted';

/** The session a memory would be injected into. */
export interface InjectionTarget {
  /** The session's canonical project key; null when none resolved (then global memories only). */
  readonly projectKey: string | null;
  /** Ids already injected in full into this session (the ledger). */
  readonly alreadyInjected: ReadonlySet<MemoryId>;
  /**
   * Ids this session was shown only as an index entry (the ledger). Not withheld: a later prompt may
   * bring such a memory in full, but prompt recall does not point at it again. Missing: none.
   */
  readonly alreadyIndexed?: ReadonlySet<MemoryId>;
  readonly privileges?: PrivilegeOptions;
  /**
   * The anchors' verdicts (threat model R5). `gone` (every cited file deleted) is withheld; `stale` is
   * injected, labelled. Missing entries: not checked, injected unlabelled.
   */
  readonly staleness?: ReadonlyMap<MemoryId, MemoryStaleness>;
}

/**
 * The origins proactive injection accepts, for narrowing store queries. A prefilter only: every
 * candidate still passes {@link withheldReasons}, so a wrong list can narrow, never widen.
 */
export function injectableOrigins(options: PrivilegeOptions = {}): OriginClass[] {
  return TRUST_ORDER.filter((origin) => privilegesFor(origin, options).injectProactively);
}

/**
 * True for a global memory, or a project memory of exactly `projectKey`. With no project key only global
 * memories qualify: an unresolved or empty key is never a wildcard.
 */
export function inSessionScope(
  memory: Pick<Memory, 'visibility' | 'projectKey'>,
  projectKey: string | null,
): boolean {
  if (memory.visibility === 'global') return true;
  return projectKey !== null && projectKey !== '' && memory.projectKey === projectKey;
}

/** Every reason `memory` may not be injected into `target`; empty when it may. Fails closed. */
export function withheldReasons(memory: Memory, target: InjectionTarget): WithheldReason[] {
  const reasons: WithheldReason[] = [];
  if (!inSessionScope(memory, target.projectKey)) reasons.push('out_of_scope');
  reasons.push(...injectionEligibility(memory, target.privileges).reasons);
  if (target.alreadyInjected.has(memory.id)) reasons.push('already_injected');
  if (target.staleness?.get(memory.id)?.status === 'gone') reasons.push('cited_files_deleted');
  return reasons;
}

/** True when `memory` may be injected into `target`. */
export function mayInject(memory: Memory, target: InjectionTarget): boolean {
  return withheldReasons(memory, target).length === 0;
}

/**
 * A memory as the renderer takes it, with read-time labels the model can weigh: `pinned` (a person
 * asked for it always), `global` (not from this project) and `stale` with a note saying which cited file
 * changed and when.
 */
export function toRenderItem(memory: Memory, staleness?: MemoryStaleness): RenderItem {
  const flags: string[] = [];
  if (memory.pinned) flags.push('pinned');
  if (memory.visibility === 'global') flags.push('global');
  const stale = isStale(staleness);
  if (stale) flags.push('stale');
  return {
    ...(stale && staleness?.label !== undefined ? { note: staleness.label } : {}),
    id: memory.id,
    // Read-time redaction too: a row stored before a detector existed must not leak (threat model R7).
    content: redactSecrets(memory.content).text,
    origin: memory.origin,
    createdAt: memory.createdAt,
    kind: memory.kind,
    flags,
  };
}
