/**
 * `mnemo hook pre-compact`: the session's context is about to be compacted, so its state is written down
 * first as a checkpoint (see session-checkpoint.ts). Prints nothing: PreCompact ignores plain stdout, and
 * a memory engine never blocks a compaction.
 */
import type { App } from '../app/open-app.js';
import type { PreCompactInput } from './hook-input.js';
import type { HookResult } from './run-hook.js';
import { writeSessionCheckpoint } from './session-checkpoint.js';

/** Writes the session's checkpoint, with the user's `/compact` instructions when given. */
export async function handlePreCompact(input: PreCompactInput, app: App): Promise<HookResult> {
  await writeSessionCheckpoint(app, {
    event: 'pre-compact',
    sessionId: input.session_id,
    cwd: input.cwd,
    transcriptPath: input.transcript_path,
    detail: input.trigger,
    compactInstructions: input.custom_instructions,
  });
  return {};
}
