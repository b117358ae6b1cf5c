/**
 * Which memories the project page may show. The page lands in a Markdown file that Claude Code reads
 * as the project's own instructions, unframed and at the user's authority, and that a team reviews in
 * git: so it takes less than proactive injection does, not more. Decided by origin (the channel a
 * memory arrived through) and review state only, never by its text (threat model principles 1, 2, 8):
 *
 * - origin `user` (CLI, web viewer, the page itself), not rejected;
 * - origin `agent` only once a person approved it: a model's own `remember` is not the user;
 * - nothing else, approved or not. Approval lifts a hold but never changes an origin (as for
 *   injection), so an approved web capture, tainted write or unknown tool stays off the page;
 * - and never a memory read from a web address, a tainted one, a superseded one, a global one (a
 *   person's cross-project preferences stay theirs), another project's, or one private to its author
 *   in a team store (the page is shared through git).
 *
 * Pure; fails closed: an origin outside the vocabulary is `unknown`, which is not listed.
 */
import type { Memory, QuarantineState } from '../memory.js';
import { type OriginClass, parseOriginClass } from '../origin/origin-class.js';
import { PAGE_ENTRY_KINDS } from './page-format.js';

/** Why a memory is not on the page. */
export type PageWithheldReason =
  | 'other_project'
  | 'global'
  | 'private'
  | 'superseded'
  | 'origin_not_allowlisted'
  | 'not_approved'
  | 'quarantine_pending'
  | 'quarantine_rejected'
  | 'tainted'
  | 'read_from_web'
  | 'kind_not_on_page';

/** The origins the page takes, each with the review states it takes them in. */
const PAGE_REVIEW_STATES: Readonly<Partial<Record<OriginClass, readonly QuarantineState[]>>> = {
  user: ['none', 'approved'],
  agent: ['approved'],
};

/** For narrowing store reads; every candidate still passes {@link pageWithheldReasons}. */
export const PAGE_ORIGINS: readonly OriginClass[] = Object.keys(
  PAGE_REVIEW_STATES,
) as OriginClass[];
export const PAGE_REVIEW_FILTER: readonly QuarantineState[] = ['none', 'approved'];

type Subject = Pick<
  Memory,
  | 'projectKey'
  | 'visibility'
  | 'teamVisible'
  | 'supersededBy'
  | 'origin'
  | 'quarantine'
  | 'tainted'
  | 'sourceUrl'
  | 'kind'
>;

/** Every reason `memory` may not be on `projectKey`'s page; empty when it may. */
export function pageWithheldReasons(memory: Subject, projectKey: string): PageWithheldReason[] {
  const reasons: PageWithheldReason[] = [];
  if (projectKey === '' || memory.projectKey !== projectKey) reasons.push('other_project');
  if (memory.visibility !== 'project') reasons.push('global');
  if (!memory.teamVisible) reasons.push('private');
  if (memory.supersededBy !== null) reasons.push('superseded');
  const states = PAGE_REVIEW_STATES[parseOriginClass(memory.origin)];
  if (states === undefined) reasons.push('origin_not_allowlisted');
  if (memory.quarantine === 'pending') reasons.push('quarantine_pending');
  else if (memory.quarantine === 'rejected') reasons.push('quarantine_rejected');
  else if (states !== undefined && !states.includes(memory.quarantine))
    reasons.push('not_approved');
  if (memory.tainted) reasons.push('tainted');
  if (memory.sourceUrl !== null) reasons.push('read_from_web');
  if (memory.kind !== 'checkpoint' && !PAGE_ENTRY_KINDS.includes(memory.kind)) {
    reasons.push('kind_not_on_page');
  }
  return reasons;
}

/** True when `memory` may be on `projectKey`'s page. */
export function mayShowOnPage(memory: Subject, projectKey: string): boolean {
  return pageWithheldReasons(memory, projectKey).length === 0;
}
