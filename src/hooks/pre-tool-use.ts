/**
 * `mnemo hook pre-tool-use`: before mnemo's own `remember` (or another session-sensitive tool of
 * `CLAIMING_TOOLS`) runs, record a claim linking the content (for `reverify_memory`, the id) to the
 * Claude Code session that produced the call. The MCP server sees no session id (and
 * `CLAUDE_CODE_SESSION_ID` in its environment goes stale after /clear), so this claim is how it learns
 * which session's taint applies; no claim means tainted (see `write/resolve-agent-taint.ts`). Prints
 * nothing: mnemo never allows, denies or rewrites a tool call.
 */
import type { App } from '../app/open-app.js';
import { isMemoryError } from '../core/errors.js';
import { MAX_CONTENT_LENGTH, normaliseContent } from '../core/memory.js';
import { claimTextOf, isRememberTool } from '../core/origin/own-tools.js';
import { contentHash } from '../store/content-hash.js';
import { writePolicyFromConfig } from '../write/write-policy.js';
import type { PreToolUseInput } from './hook-input.js';
import type { HookResult } from './run-hook.js';

/** Records a remember claim for mnemo's `remember` tool; ignores every other tool. */
export async function handlePreToolUse(input: PreToolUseInput, app: App): Promise<HookResult> {
  const originConfig = writePolicyFromConfig(app.config).originConfig;
  if (!isRememberTool(input.tool_name, originConfig)) return {};
  const raw = claimTextOf(input.tool_name, input.tool_input);
  // Sized before any regex; content this long would be refused by the server anyway (and so stays tainted).
  if (typeof raw !== 'string' || raw.length > MAX_CONTENT_LENGTH * 2) {
    app.log.info('remember claim not recorded', { reason: 'unusable_content' });
    return {};
  }
  let normalised: string;
  try {
    normalised = normaliseContent(raw);
  } catch (error) {
    if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
    app.log.info('remember claim not recorded', { reason: 'invalid_content' });
    return {};
  }
  await app.store.recordRememberClaim({
    sessionId: input.session_id,
    contentHash: contentHash(normalised),
    toolUseId: input.tool_use_id ?? null,
  });
  return {};
}
