/** `mnemo hook session-end`, bundled into `dist/hook-bundles/session-end.cjs` by `npm run build`. */
import { type SessionEndInput, sessionEndInput } from '../hook-input.js';
import { hookEntry } from '../run-hook.js';
import { handleSessionEnd } from '../session-end.js';

export const { spec, main } = hookEntry<SessionEndInput>({
  name: 'session-end',
  schema: sessionEndInput,
  handle: handleSessionEnd,
});
