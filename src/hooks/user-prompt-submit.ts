/**
 * `mnemo hook user-prompt-submit`: a person sent a prompt, so a new user turn starts and the session's
 * taint window closes (threat model principle 3). Then prompt-time recall (prompt-recall.ts) may add the
 * few memories the prompt clearly needs as `additionalContext`; most prompts get nothing.
 */
import type { App } from '../app/open-app.js';
import type { UserPromptSubmitInput } from './hook-input.js';
import { type PromptRecallOptions, recallForPrompt } from './prompt-recall.js';
import type { HookResult } from './run-hook.js';

/** Clears the session's taint, then recalls for the prompt. The prompt text is never stored. */
export async function handleUserPromptSubmit(
  input: UserPromptSubmitInput,
  app: App,
  options: PromptRecallOptions = {},
): Promise<HookResult> {
  // First, and on its own: the turn boundary must hold even if recall fails.
  await app.store.clearSessionTaint(input.session_id);
  return recallForPrompt(input, app, options);
}
