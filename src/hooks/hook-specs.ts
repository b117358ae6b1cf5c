/**
 * The hook subcommands mnemo implements, each a schema plus a thin handler. Names mirror the Claude Code
 * event names in kebab-case (architecture §2.3).
 */
import type { App } from '../app/open-app.js';
import {
  type PreCompactInput,
  preCompactInput,
  type PreToolUseInput,
  preToolUseInput,
  type SessionEndInput,
  sessionEndInput,
  type SessionStartInput,
  sessionStartInput,
  type ToolResultInput,
  toolResultInput,
  type UserPromptSubmitInput,
  userPromptSubmitInput,
} from './hook-input.js';
import { handleToolResult, spoolRefusedToolResult, spoolToolResult } from './post-tool-use.js';
import { handlePreCompact } from './pre-compact.js';
import { handlePreToolUse } from './pre-tool-use.js';
import type { HookSpec } from './run-hook.js';
import { handleSessionEnd } from './session-end.js';
import { handleSessionStart } from './session-start.js';
import { handleUserPromptSubmit } from './user-prompt-submit.js';

/**
 * A tool result we refused still entered the model's context: fail closed and taint its session when the
 * payload names one, as content of unknown origin. Also applied by the spool drain to a spooled refusal.
 */
export async function taintRefusedToolResult(
  raw: Record<string, unknown>,
  app: App,
): Promise<void> {
  await app.store.bumpCounter('capture.skipped.invalid_payload');
  const sessionId = raw['session_id'];
  if (typeof sessionId === 'string' && sessionId.length > 0 && sessionId.length <= 256) {
    await app.store.markSessionTainted(sessionId, 'unknown', null);
  }
}

const toolResult = (name: string): HookSpec<ToolResultInput> => ({
  name,
  schema: toolResultInput,
  handle: handleToolResult,
  onRefused: taintRefusedToolResult,
  // A busy or unreachable store: the event goes to the spool, drained later by `mnemo serve`.
  spool: spoolToolResult,
  spoolRefused: spoolRefusedToolResult,
});

const specs = {
  'post-tool-use': toolResult('post-tool-use'),
  'post-tool-use-failure': toolResult('post-tool-use-failure'),
  'pre-tool-use': {
    name: 'pre-tool-use',
    schema: preToolUseInput,
    handle: handlePreToolUse,
  } satisfies HookSpec<PreToolUseInput>,
  'session-start': {
    name: 'session-start',
    schema: sessionStartInput,
    handle: handleSessionStart,
  } satisfies HookSpec<SessionStartInput>,
  'user-prompt-submit': {
    name: 'user-prompt-submit',
    schema: userPromptSubmitInput,
    handle: handleUserPromptSubmit,
  } satisfies HookSpec<UserPromptSubmitInput>,
  'pre-compact': {
    name: 'pre-compact',
    schema: preCompactInput,
    handle: handlePreCompact,
  } satisfies HookSpec<PreCompactInput>,
  'session-end': {
    name: 'session-end',
    schema: sessionEndInput,
    handle: handleSessionEnd,
  } satisfies HookSpec<SessionEndInput>,
} as const;

/** The subcommands of `mnemo hook`. */
export type HookName = keyof typeof specs;
/** The subcommands of `mnemo hook`, for help text. */
export const HOOK_NAMES = Object.keys(specs) as HookName[];

/** The spec of a subcommand, or undefined for a name mnemo does not implement. */
export function hookSpec(name: string): HookSpec<never> | undefined {
  return Object.hasOwn(specs, name)
    ? (specs[name as HookName] as unknown as HookSpec<never>)
    : undefined;
}
