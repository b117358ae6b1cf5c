/**
 * The hook subcommands mnemo implements, each a schema plus a thin handler. Names mirror the Claude Code
 * event names in kebab-case (architecture §2.3). Handlers other than the tool-result capture (which runs on
 * every tool call and needs its spool fallback at hand) are imported when their event fires, so a hook
 * process loads only its own code.
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
import type { HookSpec } from './run-hook.js';

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
    handle: async (input, app) => (await import('./pre-tool-use.js')).handlePreToolUse(input, app),
  } satisfies HookSpec<PreToolUseInput>,
  'session-start': {
    name: 'session-start',
    schema: sessionStartInput,
    handle: async (input, app) =>
      (await import('./session-start.js')).handleSessionStart(input, app),
  } satisfies HookSpec<SessionStartInput>,
  'user-prompt-submit': {
    name: 'user-prompt-submit',
    schema: userPromptSubmitInput,
    handle: async (input, app) =>
      (await import('./user-prompt-submit.js')).handleUserPromptSubmit(input, app),
  } satisfies HookSpec<UserPromptSubmitInput>,
  'pre-compact': {
    name: 'pre-compact',
    schema: preCompactInput,
    handle: async (input, app) => (await import('./pre-compact.js')).handlePreCompact(input, app),
  } satisfies HookSpec<PreCompactInput>,
  'session-end': {
    name: 'session-end',
    schema: sessionEndInput,
    handle: async (input, app) => (await import('./session-end.js')).handleSessionEnd(input, app),
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
