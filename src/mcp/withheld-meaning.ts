/** Why a memory is not injected proactively, in words a model can relay to the user. */
import type { NotInjectableReason } from '../core/gate/injection-eligibility.js';

export const WITHHELD_MEANING: Readonly<
  Record<NotInjectableReason | 'cited_files_deleted', string>
> = {
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
