/**
 * Schemas of the Claude Code hook payloads mnemo consumes (integration reference §1.2, §1.10, Appendix A).
 * Tolerant on purpose: unknown fields pass (the host adds fields between releases) and fields we do not
 * need are optional. Strict where it protects the trust model: the fields we do read have bounded sizes,
 * and the write-privilege claims a host never sends (`force`, `deliberate`, `write_class`, `origin`...) are
 * refused outright, so a payload carrying them stores nothing (threat model W4).
 *
 * Written with valibot, whose schemas are plain objects built by small functions: every hook process
 * validates its payload, and zod costs several milliseconds of start-up even in its mini build
 * (docs/benchmarks.md, "Hook latency"). Refusals are logged as paths and zod-style issue codes
 * ({@link describeIssues}), as before.
 */
import * as v from 'valibot';

import { RESERVED_CLAIM_KEYS } from './claim-keys.js';

const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.maxLength(max)));
const toolInput = v.optional(v.record(v.string(), v.unknown()), () => ({}));

/**
 * A payload object: the given fields checked, unknown fields kept, and every reserved claim key present
 * refused, each as its own issue at its own path.
 */
function payload<E extends v.ObjectEntries>(entries: E) {
  type Output = v.InferOutput<v.LooseObjectSchema<E, undefined>>;
  return v.pipe(
    v.looseObject(entries),
    v.rawCheck<Output>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const value = dataset.value as Record<string, unknown>;
      for (const key of RESERVED_CLAIM_KEYS) {
        if (!Object.hasOwn(value, key)) continue;
        addIssue({
          message: 'privilege claim refused',
          path: [{ type: 'object', origin: 'value', input: value, key, value: value[key] }],
        });
      }
    }),
  );
}

const base = {
  session_id: text(1, 256),
  transcript_path: optionalText(4096),
  cwd: text(1, 4096),
  permission_mode: optionalText(64),
  prompt_id: optionalText(256),
  agent_id: optionalText(256),
  agent_type: optionalText(256),
};

/** PostToolUse: a tool call succeeded. `tool_response` is the tool's structured output, any shape. */
export const postToolUseInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('PostToolUse'),
  tool_name: text(1, 256),
  tool_input: toolInput,
  tool_response: v.optional(v.unknown()),
  tool_use_id: optionalText(256),
  duration_ms: v.optional(v.number()),
});
/** A validated PostToolUse payload. */
export type PostToolUseInput = v.InferOutput<typeof postToolUseInput>;

/** PostToolUseFailure: a tool call failed; for Bash `error` starts with `Exit code N`. */
export const postToolUseFailureInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('PostToolUseFailure'),
  tool_name: text(1, 256),
  tool_input: toolInput,
  tool_use_id: optionalText(256),
  error: v.optional(v.unknown()),
  is_interrupt: v.optional(v.boolean()),
  duration_ms: v.optional(v.number()),
});
/** A validated PostToolUseFailure payload. */
export type PostToolUseFailureInput = v.InferOutput<typeof postToolUseFailureInput>;

/** Either tool-result event: `mnemo hook post-tool-use` and `post-tool-use-failure` accept both. */
export const toolResultInput = /* @__PURE__ */ v.union([postToolUseInput, postToolUseFailureInput]);
/** A validated tool-result payload. */
export type ToolResultInput = v.InferOutput<typeof toolResultInput>;

/** PreToolUse: the model built a tool call; it has not run (nor been permitted) yet. */
export const preToolUseInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('PreToolUse'),
  tool_name: text(1, 256),
  tool_input: toolInput,
  tool_use_id: optionalText(256),
});
/** A validated PreToolUse payload. */
export type PreToolUseInput = v.InferOutput<typeof preToolUseInput>;

/** UserPromptSubmit: the user sent a prompt; a new user turn starts. */
export const userPromptSubmitInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('UserPromptSubmit'),
  prompt: v.optional(v.string()),
});
/** A validated UserPromptSubmit payload. */
export type UserPromptSubmitInput = v.InferOutput<typeof userPromptSubmitInput>;

/** PreCompact: the context is about to be compacted (`trigger` manual or auto). */
export const preCompactInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('PreCompact'),
  trigger: optionalText(64),
  // The text given to `/compact`; null or empty for an automatic compaction.
  custom_instructions: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100_000)))),
});
/** A validated PreCompact payload. */
export type PreCompactInput = v.InferOutput<typeof preCompactInput>;

/** SessionEnd: the session terminates (`reason` clear, resume, logout, prompt_input_exit, other…). */
export const sessionEndInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('SessionEnd'),
  reason: optionalText(64),
});
/** A validated SessionEnd payload. */
export type SessionEndInput = v.InferOutput<typeof sessionEndInput>;

/** SessionStart: a session starts, resumes, or restarts after /clear or compaction. */
export const sessionStartInput = /* @__PURE__ */ payload({
  ...base,
  hook_event_name: v.literal('SessionStart'),
  // `startup`, `resume`, `clear`, `compact`, `fork`; kept open, since the host adds values (§1.10).
  source: optionalText(64),
  model: optionalText(256),
});
/** A validated SessionStart payload. */
export type SessionStartInput = v.InferOutput<typeof sessionStartInput>;

/** The zod-style code of a valibot issue, so log lines keep their vocabulary. */
function issueCode(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'raw_check' || issue.type === 'check') return 'custom';
  if (issue.type === 'min_length' || issue.type === 'min_value') return 'too_small';
  if (issue.type === 'max_length' || issue.type === 'max_value') return 'too_big';
  if (issue.type === 'literal' || issue.type === 'picklist' || issue.type === 'union') {
    return 'invalid_value';
  }
  return issue.kind === 'schema' ? 'invalid_type' : issue.type;
}

/**
 * Where a refused payload failed, as paths and issue codes only: messages and received values are never
 * logged, because they could echo payload text into the log.
 */
export function describeIssues(
  issues: readonly v.BaseIssue<unknown>[],
): { path: string; code: string }[] {
  return issues.slice(0, 10).map((issue) => ({
    path: (v.getDotPath(issue) ?? '').slice(0, 80) || '(root)',
    code: issueCode(issue),
  }));
}
