/** `mnemo hook user-prompt-submit`, bundled into `dist/hook-bundles/user-prompt-submit.cjs` by `npm run build`. */
import { MAX_QUERY_CHARS } from '../../engine/engine-protocol.js';
import { type UserPromptSubmitInput, userPromptSubmitInput } from '../hook-input.js';
import { viaEngine } from '../injection-specs.js';
import { hookEntry, type HookSpec } from '../run-hook.js';

/** The spec of `mnemo hook user-prompt-submit`. */
export function userPromptSubmitSpec(): HookSpec<UserPromptSubmitInput> {
  // Once the engine was asked and did not answer, the direct path does not ask it for candidates again.
  let engineAsked = false;
  return {
    name: 'user-prompt-submit',
    schema: userPromptSubmitInput,
    withoutStore: (input, ctx, remainingMs) => {
      engineAsked = true;
      return viaEngine(
        'user-prompt-submit',
        {
          hook_event_name: input.hook_event_name,
          session_id: input.session_id,
          cwd: input.cwd,
          // A recall query is at most this long, and the relevance gate reads no further either
          // (MAX_RELEVANCE_CHARS); a pasted log must not outgrow the request line.
          ...(input.prompt === undefined ? {} : { prompt: input.prompt.slice(0, MAX_QUERY_CHARS) }),
        },
        ctx,
        remainingMs,
      );
    },
    handle: async (input, app) => {
      const { handleUserPromptSubmit } = await import('../user-prompt-submit.js');
      return handleUserPromptSubmit(input, app, { askEngine: !engineAsked });
    },
  };
}

export const { spec, main } = hookEntry(userPromptSubmitSpec());
