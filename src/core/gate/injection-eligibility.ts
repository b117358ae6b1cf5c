/**
 * Whether a stored memory may be injected proactively (SessionStart, prompt-time context), and every reason
 * it may not. One predicate for the explain view and the injecting emitters, so what `mnemo explain` says is
 * what the hooks do. Approval lifts quarantine only: it never upgrades the origin, so an approved network
 * memory is still recall-only.
 */
import type { QuarantineState } from '../memory.js';
import { parseOriginClass } from '../origin/origin-class.js';
import { type PrivilegeOptions, privilegesFor } from '../privileges/privileges.js';

/** Why a memory is withheld from proactive injection. */
export type NotInjectableReason =
  | 'origin_not_allowlisted'
  | 'tainted'
  | 'quarantine_pending'
  | 'quarantine_rejected'
  | 'superseded';

/** The fields the predicate reads. */
export interface InjectionSubject {
  readonly origin: string;
  readonly tainted: boolean;
  readonly quarantine: QuarantineState;
  readonly supersededBy: string | null;
}

/** The verdict: eligible only when `reasons` is empty. */
export interface InjectionEligibility {
  readonly eligible: boolean;
  readonly reasons: readonly NotInjectableReason[];
}

/** Fails closed: an origin outside the vocabulary is `unknown`, which is not allowlisted. */
export function injectionEligibility(
  memory: InjectionSubject,
  options: PrivilegeOptions = {},
): InjectionEligibility {
  const reasons: NotInjectableReason[] = [];
  if (!privilegesFor(parseOriginClass(memory.origin), options).injectProactively) {
    reasons.push('origin_not_allowlisted');
  }
  if (memory.tainted) reasons.push('tainted');
  if (memory.quarantine === 'pending') reasons.push('quarantine_pending');
  if (memory.quarantine === 'rejected') reasons.push('quarantine_rejected');
  if (memory.supersededBy !== null) reasons.push('superseded');
  return { eligible: reasons.length === 0, reasons };
}
