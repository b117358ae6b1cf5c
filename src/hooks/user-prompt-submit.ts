/**
 * `mnemo hook user-prompt-submit`: a person sent a prompt, so a new user turn starts and the session's
 * taint window closes (threat model principle 3). Prints nothing: prompt-time recall arrives later.
 */
import type { App } from '../app/open-app.js';
import type { UserPromptSubmitInput } from './hook-input.js';
import type { HookResult } from './run-hook.js';

/** Clears the session's taint. The prompt text is not read. */
export async function handleUserPromptSubmit(
  input: UserPromptSubmitInput,
  app: App,
): Promise<HookResult> {
  await app.store.clearSessionTaint(input.session_id);
  return {};
}
