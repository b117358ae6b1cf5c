import { readFileSync } from 'node:fs';

import { expect } from 'vitest';

import type { RunResult, TestHome } from './mnemo-bin.js';

/** The working directory the recorded payloads were captured in (integration reference §7). */
export const FIXTURE_CWD = '/home/dev/work/acme-api';
/** The session id of most recorded payloads. */
export const FIXTURE_SESSION = '3b8e5c2d-7a14-4f0e-9c61-5d2a8e7f4b90';

/**
 * Hook runs in tests get a long deadline, so what they store does not depend on how loaded the test host
 * is; the deadline itself is tested in src/hooks/run-hook.test.ts with an injected value.
 */
export const HOOK_TEST_ENV: NodeJS.ProcessEnv = { MNEMO_HOOK_DEADLINE_MS: '60000' };

/** The recorded hook payloads in test/fixtures/hooks. */
export type HookFixtureName =
  | 'user-prompt-submit'
  | 'user-prompt-submit.follow-up'
  | 'session-start.startup'
  | 'session-start.resume'
  | 'session-start.clear'
  | 'session-start.compact'
  | 'post-tool-use-webfetch'
  | 'post-tool-use-bash'
  | 'post-tool-use-bash-pass'
  | 'post-tool-use-edit'
  | 'post-tool-use-write'
  | 'post-tool-use-read'
  | 'post-tool-use-mcp'
  | 'post-tool-use-failure-bash'
  | 'pre-tool-use-remember'
  | 'pre-compact.manual'
  | 'pre-compact.auto'
  | 'session-end.exit'
  | 'session-end.clear';

/**
 * A recorded payload re-rooted at `cwd` (paths under the recorded project move with it), optionally with
 * another session id and extra or replaced fields.
 */
export function hookFixture(
  name: HookFixtureName,
  options: { cwd: string; sessionId?: string; patch?: Record<string, unknown> },
): Record<string, unknown> {
  const text = readFileSync(new URL(`../fixtures/hooks/${name}.json`, import.meta.url), 'utf8');
  const rerooted = text.split(FIXTURE_CWD).join(options.cwd);
  const payload = JSON.parse(rerooted) as Record<string, unknown>;
  if (options.sessionId !== undefined) payload['session_id'] = options.sessionId;
  return { ...payload, ...options.patch };
}

/** Feeds a payload (object or raw text) to `mnemo hook <event>` of the built binary. */
export function runHookBin(
  home: TestHome,
  event: string,
  payload: Record<string, unknown> | string | Uint8Array,
): Promise<RunResult> {
  const input =
    typeof payload === 'object' && !(payload instanceof Uint8Array)
      ? JSON.stringify(payload)
      : payload;
  return home.run(['hook', event], { input, env: HOOK_TEST_ENV });
}

/** Runs a hook that must succeed silently: exit 0 and nothing on stdout. */
export async function expectQuietHook(
  home: TestHome,
  event: string,
  payload: Record<string, unknown> | string | Uint8Array,
): Promise<void> {
  const result = await runHookBin(home, event, payload);
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: '' });
}
