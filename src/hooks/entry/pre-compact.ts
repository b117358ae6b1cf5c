/** `mnemo hook pre-compact`, bundled into `dist/hook-bundles/pre-compact.cjs` by `npm run build`. */
import { type PreCompactInput, preCompactInput } from '../hook-input.js';
import { handlePreCompact } from '../pre-compact.js';
import { hookEntry } from '../run-hook.js';

export const { spec, main } = hookEntry<PreCompactInput>({
  name: 'pre-compact',
  schema: preCompactInput,
  handle: handlePreCompact,
});
