/** `mnemo hook user-prompt-submit`, bundled into `dist/hook-bundles/user-prompt-submit.js` by `npm run build`. */
import { type UserPromptSubmitInput, userPromptSubmitInput } from '../hook-input.js';
import { hookEntry } from '../run-hook.js';
import { handleUserPromptSubmit } from '../user-prompt-submit.js';

export const { spec, main } = hookEntry<UserPromptSubmitInput>({
  name: 'user-prompt-submit',
  schema: userPromptSubmitInput,
  handle: handleUserPromptSubmit,
});
