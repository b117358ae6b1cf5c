/** `mnemo hook user-prompt-submit`, bundled into `dist/hook-bundles/user-prompt-submit.cjs` by `npm run build`. */
import { userPromptSubmitSpec } from '../injection-specs.js';
import { hookEntry } from '../run-hook.js';

export const { spec, main } = hookEntry(userPromptSubmitSpec());
