/**
 * The engine's answer to a session-start or user-prompt-submit hook (engine/engine-inject.ts), wired
 * into `mnemo serve` by the CLI. The payload is validated again with the hook's own schema, and the
 * same handlers run as in the hook, with the engine's store and, for prompt recall, its hybrid search;
 * the injection settings are the hook's (it read the config file just now). Once the hook has stopped
 * waiting (`answerBy`), nothing is recorded in the ledger and the answer is `late`: the hook then reads
 * the store itself, so what the model is shown and what the ledger says stay the same.
 */
import * as v from 'valibot';

import type { App } from '../app/open-app.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import type { EngineSearch } from '../engine/engine-inject.js';
import type { EngineInjectArgs, InjectResult } from '../engine/engine-protocol.js';
import { describeIssues, sessionStartInput, userPromptSubmitInput } from './hook-input.js';
import { handleSessionStart } from './session-start.js';
import { handleUserPromptSubmit } from './user-prompt-submit.js';

function validated<T>(schema: v.GenericSchema<unknown, T>, input: unknown): T {
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return parsed.output;
  // Paths and codes only, as the hook logs them: a message could echo the prompt.
  const where = describeIssues(parsed.issues)
    .map((issue) => `${issue.path} ${issue.code}`)
    .join(', ');
  throw new MemoryError('INVALID_INPUT', `hook payload refused by the engine: ${where}`);
}

/** Answers one `inject` request; the hook prints `stdout` exactly. */
export async function answerInjection(
  args: EngineInjectArgs,
  app: App,
  search: EngineSearch,
): Promise<InjectResult> {
  const stillWanted = () => Date.now() < args.answerBy;
  if (!stillWanted()) return { late: true };
  const hookApp: App = { ...app, config: { ...app.config, injection: args.injection } };
  try {
    const result =
      args.event === 'session-start'
        ? await handleSessionStart(validated(sessionStartInput, args.input), hookApp, {
            stillWanted,
          })
        : await handleUserPromptSubmit(validated(userPromptSubmitInput, args.input), hookApp, {
            stillWanted,
            search,
          });
    return { stdout: result.stdout ?? null };
  } catch (error) {
    if (isMemoryError(error, 'TIMEOUT')) return { late: true };
    throw error;
  }
}
