/**
 * Schemas of the Claude Code hook payloads mnemo consumes (integration reference §1.2, §1.10, Appendix A).
 * Tolerant on purpose: unknown fields pass (the host adds fields between releases) and fields we do not
 * need are optional. Strict where it protects the trust model: the fields we do read have bounded sizes,
 * and the write-privilege claims a host never sends (`force`, `deliberate`, `write_class`, `origin`...) are
 * refused outright, so a payload carrying them stores nothing (threat model W4).
 */
import { z } from 'zod';

/** Envelope keys that claim privileges. Claude Code never sends them; their presence means a forged payload. */
export const RESERVED_CLAIM_KEYS = [
  'force',
  'deliberate',
  'write_class',
  'origin',
  'origin_tool',
  'trust',
] as const;

const sessionId = z.string().min(1).max(256);
const toolName = z.string().min(1).max(256);
const toolInput = z.record(z.string(), z.unknown());

function refuseClaims(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const key of RESERVED_CLAIM_KEYS) {
    if (Object.hasOwn(value, key)) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'privilege claim refused' });
    }
  }
}

const base = {
  session_id: sessionId,
  transcript_path: z.string().max(4096).optional(),
  cwd: z.string().min(1).max(4096),
  permission_mode: z.string().max(64).optional(),
  prompt_id: z.string().max(256).optional(),
  agent_id: z.string().max(256).optional(),
  agent_type: z.string().max(256).optional(),
};

/** PostToolUse: a tool call succeeded. `tool_response` is the tool's structured output, any shape. */
export const postToolUseInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('PostToolUse'),
    tool_name: toolName,
    tool_input: toolInput.optional().default({}),
    tool_response: z.unknown().optional(),
    tool_use_id: z.string().max(256).optional(),
    duration_ms: z.number().optional(),
  })
  .superRefine(refuseClaims);
/** A validated PostToolUse payload. */
export type PostToolUseInput = z.infer<typeof postToolUseInput>;

/** PostToolUseFailure: a tool call failed; for Bash `error` starts with `Exit code N`. */
export const postToolUseFailureInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('PostToolUseFailure'),
    tool_name: toolName,
    tool_input: toolInput.optional().default({}),
    tool_use_id: z.string().max(256).optional(),
    error: z.unknown().optional(),
    is_interrupt: z.boolean().optional(),
    duration_ms: z.number().optional(),
  })
  .superRefine(refuseClaims);
/** A validated PostToolUseFailure payload. */
export type PostToolUseFailureInput = z.infer<typeof postToolUseFailureInput>;

/** Either tool-result event: `mnemo hook post-tool-use` and `post-tool-use-failure` accept both. */
export const toolResultInput = z.union([postToolUseInput, postToolUseFailureInput]);
/** A validated tool-result payload. */
export type ToolResultInput = z.infer<typeof toolResultInput>;

/** PreToolUse: the model built a tool call; it has not run (nor been permitted) yet. */
export const preToolUseInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('PreToolUse'),
    tool_name: toolName,
    tool_input: toolInput.optional().default({}),
    tool_use_id: z.string().max(256).optional(),
  })
  .superRefine(refuseClaims);
/** A validated PreToolUse payload. */
export type PreToolUseInput = z.infer<typeof preToolUseInput>;

/** UserPromptSubmit: the user sent a prompt; a new user turn starts. */
export const userPromptSubmitInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('UserPromptSubmit'),
    prompt: z.string().optional(),
  })
  .superRefine(refuseClaims);
/** A validated UserPromptSubmit payload. */
export type UserPromptSubmitInput = z.infer<typeof userPromptSubmitInput>;

/** PreCompact: the context is about to be compacted (`trigger` manual or auto). */
export const preCompactInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('PreCompact'),
    trigger: z.string().max(64).optional(),
    // The text given to `/compact`; null or empty for an automatic compaction.
    custom_instructions: z.string().max(100_000).nullable().optional(),
  })
  .superRefine(refuseClaims);
/** A validated PreCompact payload. */
export type PreCompactInput = z.infer<typeof preCompactInput>;

/** SessionEnd: the session terminates (`reason` clear, resume, logout, prompt_input_exit, other…). */
export const sessionEndInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('SessionEnd'),
    reason: z.string().max(64).optional(),
  })
  .superRefine(refuseClaims);
/** A validated SessionEnd payload. */
export type SessionEndInput = z.infer<typeof sessionEndInput>;

/** SessionStart: a session starts, resumes, or restarts after /clear or compaction. */
export const sessionStartInput = z
  .looseObject({
    ...base,
    hook_event_name: z.literal('SessionStart'),
    // `startup`, `resume`, `clear`, `compact`, `fork`; kept open, since the host adds values (§1.10).
    source: z.string().max(64).optional(),
    model: z.string().max(256).optional(),
  })
  .superRefine(refuseClaims);
/** A validated SessionStart payload. */
export type SessionStartInput = z.infer<typeof sessionStartInput>;

/**
 * Where a refused payload failed, as paths and issue codes only: zod messages and received values are
 * never logged, because they could echo payload text into the log.
 */
export function describeIssues(error: z.ZodError): { path: string; code: string }[] {
  return error.issues.slice(0, 10).map((issue) => ({
    path: issue.path.map(String).join('.').slice(0, 80) || '(root)',
    code: issue.code,
  }));
}
