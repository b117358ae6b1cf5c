/** `mnemo hook post-tool-use`, bundled into `dist/hook-bundles/post-tool-use.cjs` by `npm run build`. */
import type { ToolResultInput } from '../hook-input.js';
import { toolResultSpec } from '../post-tool-use.js';
import { hookEntry } from '../run-hook.js';

export const { spec, main } = hookEntry<ToolResultInput>(toolResultSpec('post-tool-use'));
