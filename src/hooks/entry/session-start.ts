/** `mnemo hook session-start`, bundled into `dist/hook-bundles/session-start.js` by `npm run build`. */
import { type SessionStartInput, sessionStartInput } from '../hook-input.js';
import { hookEntry } from '../run-hook.js';
import { handleSessionStart } from '../session-start.js';

export const { spec, main } = hookEntry<SessionStartInput>({
  name: 'session-start',
  schema: sessionStartInput,
  handle: handleSessionStart,
});
