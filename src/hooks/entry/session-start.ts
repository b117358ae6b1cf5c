/** `mnemo hook session-start`, bundled into `dist/hook-bundles/session-start.cjs` by `npm run build`. */
import { type SessionStartInput, sessionStartInput } from '../hook-input.js';
import { viaEngine } from '../injection-specs.js';
import { hookEntry, type HookSpec } from '../run-hook.js';

/** The spec of `mnemo hook session-start`. */
export function sessionStartSpec(): HookSpec<SessionStartInput> {
  return {
    name: 'session-start',
    schema: sessionStartInput,
    withoutStore: (input, ctx, remainingMs) =>
      viaEngine(
        'session-start',
        {
          hook_event_name: input.hook_event_name,
          session_id: input.session_id,
          cwd: input.cwd,
          ...(input.source === undefined ? {} : { source: input.source }),
        },
        ctx,
        remainingMs,
      ),
    handle: async (input, app) => {
      const { handleSessionStart } = await import('../session-start.js');
      return handleSessionStart(input, app);
    },
  };
}

export const { spec, main } = hookEntry(sessionStartSpec());
