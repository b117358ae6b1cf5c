/**
 * The recorded payloads of other clients' hooks (test/fixtures/clients/hooks: each client's documented
 * envelope) and a run of `mnemo hook --client <id> <event>` through the built binary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURE_CWD, HOOK_TEST_ENV } from './hook-fixtures.js';
import { REPO_ROOT, type RunResult, type TestHome } from './mnemo-bin.js';

/** The session of the recorded Gemini CLI payloads, in mnemo's session namespace. */
export const GEMINI_SESSION = 'gemini:c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f';

/** What the recorded Gemini CLI `AfterTool.replace` is stored as. */
export const GEMINI_EDIT_CONTENT =
  'Edited src/checkout/cart.ts: - const total = items.reduce((s, i) => s + i.price, 0); / ' +
  '+ const total = items.reduce((s, i) => s + i.price * i.qty, 0); (1→1 lines)';

/** Where the recorded payloads' mnemo home was; re-rooted to the test's home like the project. */
const FIXTURE_MNEMO_HOME = '/home/dev/.mnemo';

/** A recorded client payload, re-rooted at the test's project and mnemo home, with fields patched. */
export function clientPayload(
  h: TestHome,
  client: 'cursor' | 'gemini',
  name: string,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  const text = readFileSync(
    join(REPO_ROOT, 'test', 'fixtures', 'clients', 'hooks', client, `${name}.json`),
    'utf8',
  );
  const rerooted = text.split(FIXTURE_CWD).join(h.project).split(FIXTURE_MNEMO_HOME).join(h.home);
  return { ...(JSON.parse(rerooted) as Record<string, unknown>), ...patch };
}

/** Runs `mnemo hook --client <client> <event>` on `input` (an object is sent as JSON). */
export function runClientHookBin(
  h: TestHome,
  client: string,
  event: string,
  input: Record<string, unknown> | string,
): Promise<RunResult> {
  return h.run(['hook', '--client', client, event], {
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env: HOOK_TEST_ENV,
  });
}
