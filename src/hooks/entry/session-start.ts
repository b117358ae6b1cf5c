/** `mnemo hook session-start`, bundled into `dist/hook-bundles/session-start.cjs` by `npm run build`. */
import { sessionStartSpec } from '../injection-specs.js';
import { hookEntry } from '../run-hook.js';

export const { spec, main } = hookEntry(sessionStartSpec());
