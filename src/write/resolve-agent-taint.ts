/**
 * Whether a model-invoked `remember` arrived in a tainted window (threat model principle 3, W5). The MCP
 * server receives only the text: no Claude Code session id, and `CLAUDE_CODE_SESSION_ID` in its
 * environment is the id at spawn time, stale after /clear. The `pre-tool-use` hook therefore records a
 * claim { session, hash of the text } just before the call; this function consumes it, reads that
 * session's taint and decides `agent` vs `agent_tainted`. Everything uncertain fails closed: no claim, a
 * stale claim, unusable text or a failing lookup all mean tainted.
 */
import { isMemoryError } from '../core/errors.js';
import { normaliseContent } from '../core/memory.js';
import type { Logger } from '../log/log.js';
import { contentHash } from '../store/content-hash.js';
import type { MemoryStore } from '../store/store.js';

/** How long a remember claim stays usable: PreToolUse fires before the permission prompt, which can wait. */
export const DEFAULT_CLAIM_MAX_AGE_MS = 15 * 60 * 1000;

/** Why {@link resolveAgentTaint} decided as it did; for logs and the explain view. */
export type AgentTaintReason =
  | 'session_clean'
  | 'session_tainted'
  | 'no_claim'
  | 'invalid_content'
  | 'lookup_failed'
  | 'spool_pending';

/** The decision, with the session the claim named (null when none could be linked). */
export interface AgentTaint {
  tainted: boolean;
  sessionId: string | null;
  reason: AgentTaintReason;
}

/**
 * Resolves the taint of a `remember` from its raw `content` argument. Hashes it exactly as the
 * `pre-tool-use` hook does (`contentHash(normaliseContent(text))`), takes the newest matching claim not
 * older than `maxAgeMs` (a claim links one write only) and reads that session's taint. A store error is
 * logged (when `log` is given) and counts as tainted (`lookup_failed`), so the only thing that can throw
 * is a programming error. Pass the result as `{ channel: 'mcp_remember', tainted }` to the write service.
 */
export async function resolveAgentTaint(
  store: Pick<MemoryStore, 'takeRememberClaim' | 'getSessionTaint'>,
  rawContent: string,
  options: {
    maxAgeMs?: number;
    log?: Logger;
    /**
     * True while captures wait in the spool (threat model W11). One of them may be a web result whose
     * taint the store has not seen yet, so a clean-looking session is treated as tainted until it drains.
     */
    spoolPending?: () => boolean;
  } = {},
): Promise<AgentTaint> {
  let hash: string;
  try {
    hash = contentHash(normaliseContent(rawContent));
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    return { tainted: true, sessionId: null, reason: 'invalid_content' };
  }
  try {
    const claim = await store.takeRememberClaim(hash, options.maxAgeMs ?? DEFAULT_CLAIM_MAX_AGE_MS);
    if (claim === undefined || claim.sessionId.length === 0) {
      return { tainted: true, sessionId: null, reason: 'no_claim' };
    }
    const taint = await store.getSessionTaint(claim.sessionId);
    if (taint.tainted)
      return { tainted: true, sessionId: claim.sessionId, reason: 'session_tainted' };
    if (options.spoolPending?.() === true) {
      return { tainted: true, sessionId: claim.sessionId, reason: 'spool_pending' };
    }
    return { tainted: false, sessionId: claim.sessionId, reason: 'session_clean' };
  } catch (error) {
    options.log?.warn('remember taint lookup failed; treating the write as tainted', {
      error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
    });
    return { tainted: true, sessionId: null, reason: 'lookup_failed' };
  }
}
