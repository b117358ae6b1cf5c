/**
 * The engine's side of a forwarded hook (`hook`, engine/engine-inject.ts), wired into `mnemo serve` by
 * the CLI: the hook process sent its stdin as read (hooks/forward-hook.ts), and the engine does what the
 * hook would have done, with the same rules in the same order: the hook's config (loaded from the
 * hook's home and `MNEMO_*` variables; declined when it names another store), the payload parsed under
 * the same depth limit and validated with the hook's own schema, then the same handler: the injection
 * (hooks/engine-injection.ts), the tool-result plan handed to the capture path (taint and capture
 * decided by the envelope's event and tool name only, as in the hook), or the remember claim. A refused
 * tool-result payload still taints its session (fail closed), as in the hook.
 */
import * as v from 'valibot';

import type { App } from '../app/open-app.js';
import { planIsInert, planToolResult, shortName } from '../capture/plan-tool-result.js';
import { type Config, loadConfig } from '../config/config.js';
import { parseBoundedJson } from '../core/text/bounded-json.js';
import type { EngineHookTools } from '../engine/engine-inject.js';
import type { EngineHookArgs, HookForwardResult } from '../engine/engine-protocol.js';
import { tallySkip } from '../spool/spool-tally.js';
import { answerInjection } from './engine-injection.js';
import {
  describeIssues,
  preToolUseInput,
  sessionStartInput,
  toolResultInput,
  userPromptSubmitInput,
} from './hook-input.js';
import { HOOK_MAX_JSON_DEPTH } from './hook-limits.js';
import { refusedToolResultEntry } from './post-tool-use.js';
import { handlePreToolUse } from './pre-tool-use.js';
import { leadingSessionId } from './run-hook.js';

/** The hook's config, when it names the store this engine serves; else undefined (declined). */
function hookConfig(args: EngineHookArgs, engine: Config): Config | undefined {
  let config: Config;
  try {
    config = loadConfig({ env: { ...args.env, MNEMO_HOME: args.home } });
  } catch {
    // A broken config: the hook's own path logs it where the user looks.
    return undefined;
  }
  const same =
    config.home === engine.home &&
    config.databasePath === engine.databasePath &&
    config.databaseUrl === engine.databaseUrl;
  return same ? config : undefined;
}

function isToolResult(event: EngineHookArgs['event']): boolean {
  return event === 'post-tool-use' || event === 'post-tool-use-failure';
}

/** Answers one forwarded hook; the hook prints `stdout` exactly. */
export async function answerForwardedHook(
  args: EngineHookArgs,
  engineApp: App,
  tools: EngineHookTools,
): Promise<HookForwardResult> {
  const config = hookConfig(args, engineApp.config);
  if (config === undefined) return { declined: 'config' };
  const app: App = { ...engineApp, config };
  const { log } = app;
  const hook = args.event;
  const parsed = parseBoundedJson(args.payload, HOOK_MAX_JSON_DEPTH);
  if (!parsed.ok) {
    log.warn('hook payload refused', {
      hook,
      reason: parsed.reason,
      bytes: Buffer.byteLength(args.payload),
    });
    if (isToolResult(hook) && parsed.reason !== 'empty') {
      // Fail closed on what we could not parse: the session of a readable leading id is tainted.
      const sessionId = leadingSessionId(Buffer.from(args.payload.slice(0, 1024), 'utf8'));
      await tools.capture(
        refusedToolResultEntry(sessionId === undefined ? {} : { session_id: sessionId }),
      );
    }
    return { stdout: null };
  }
  const refuse = async (issues: readonly v.BaseIssue<unknown>[]): Promise<HookForwardResult> => {
    log.warn('hook payload refused', { hook, reason: 'schema', issues: describeIssues(issues) });
    if (isToolResult(hook)) await tools.capture(refusedToolResultEntry(parsed.value));
    return { stdout: null };
  };
  if (hook === 'session-start' || hook === 'user-prompt-submit') {
    const valid = v.safeParse(
      hook === 'session-start' ? sessionStartInput : userPromptSubmitInput,
      parsed.value,
    );
    if (!valid.success) return refuse(valid.issues);
    return answerInjection(
      { event: hook, input: valid.output, injection: config.injection, answerBy: args.answerBy },
      app,
      tools.search,
    );
  }
  if (hook === 'pre-tool-use') {
    const valid = v.safeParse(preToolUseInput, parsed.value);
    if (!valid.success) return refuse(valid.issues);
    await handlePreToolUse(valid.output, app);
    return { stdout: null };
  }
  const valid = v.safeParse(toolResultInput, parsed.value);
  if (!valid.success) return refuse(valid.issues);
  const plan = planToolResult(valid.output, config);
  if (planIsInert(plan, config) && 'skip' in plan.capture) {
    log.debug('capture skipped', { tool: shortName(plan.toolName), reason: plan.capture.skip });
    if (tallySkip(config, plan.capture.skip, log)) return { stdout: null };
  }
  await tools.capture({ type: 'tool_result', ...plan });
  return { stdout: null };
}
