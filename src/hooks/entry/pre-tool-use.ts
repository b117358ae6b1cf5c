/** `mnemo hook pre-tool-use`, bundled into `dist/hook-bundles/pre-tool-use.cjs` by `npm run build`. */
import { type PreToolUseInput, preToolUseInput } from '../hook-input.js';
import { handlePreToolUse } from '../pre-tool-use.js';
import { hookEntry } from '../run-hook.js';

export const { spec, main } = hookEntry<PreToolUseInput>({
  name: 'pre-tool-use',
  schema: preToolUseInput,
  handle: handlePreToolUse,
});
