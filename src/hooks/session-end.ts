/**
 * `mnemo hook session-end`: the session terminates (exit, `/clear`, `/resume`, logout), so its final
 * state is written as a checkpoint, replacing one written at an earlier compaction (see
 * session-checkpoint.ts). Prints nothing; all SessionEnd hooks share a 1.5 s budget, which the
 * transcript read's own byte and time bounds respect.
 */
import type { App } from '../app/open-app.js';
import type { SessionEndInput } from './hook-input.js';
import type { HookResult } from './run-hook.js';
import { writeSessionCheckpoint } from './session-checkpoint.js';

/** Writes the session's checkpoint. */
export async function handleSessionEnd(input: SessionEndInput, app: App): Promise<HookResult> {
  await writeSessionCheckpoint(app, {
    event: 'session-end',
    sessionId: input.session_id,
    cwd: input.cwd,
    transcriptPath: input.transcript_path,
    detail: input.reason,
  });
  return {};
}
