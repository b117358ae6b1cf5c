/**
 * The capture policy: which tool events become memories, decided by the channel alone — the hook event, the
 * tool name and the origin class the envelope gives it — and never by words in the tool's output. A page
 * that says "Decision:" or "IMPORTANT" cannot choose its own persistence; only the channel can, and the
 * defaults follow from what each channel's text is (threat model W1, W2, W7).
 *
 * Defaults by channel:
 * - edits (Edit, Write, MultiEdit, NotebookEdit): a compact "Edited <path>: <diff summary>" capture;
 * - command runners (Bash, PowerShell): a failure is an `error`; a later success of the same command in the
 *   same session is a `fix`; other successful runs are not captured;
 * - network tools (WebFetch, WebSearch, MCP tools declared `network`): stored, and the write service holds
 *   them in quarantine;
 * - reads (Read, Grep, Glob, LS...), unknown built-ins and undeclared `mcp__*` tools: not captured;
 * - mnemo's own MCP tools: never captured (their output is memory already), whatever the config says.
 *
 * Pure: the caller classifies the origin and passes it in.
 */
import type { OriginExplanation } from '../origin/classify-origin.js';
import { normaliseToolName } from '../origin/tool-names.js';

/** The hook events that can produce a capture. */
export type CaptureEvent = 'PostToolUse' | 'PostToolUseFailure';

/** What a per-tool setting may say. `default` (or no entry) leaves the channel default in place. */
export const TOOL_CAPTURE_SETTINGS = ['capture', 'skip', 'default'] as const;
/** One per-tool setting. */
export type ToolCaptureSetting = (typeof TOOL_CAPTURE_SETTINGS)[number];

/** The configurable part of the policy. */
export interface CapturePolicyConfig {
  /**
   * Per-tool overrides, keyed by tool name (`Read`, `mcp__docs__search`) or a whole MCP server
   * (`mcp__docs__*`). Keys are normalised like tool names; an exact tool entry wins over its server.
   */
  readonly tools: Readonly<Record<string, ToolCaptureSetting>>;
  /** A capture whose substance (diff, error text, page text) is shorter than this is skipped. */
  readonly minChars: number;
}

/** The defaults: no overrides, a 12-character floor. */
export const DEFAULT_CAPTURE_POLICY: CapturePolicyConfig = Object.freeze({
  tools: Object.freeze({}),
  minChars: 12,
});

/** How a captured event is summarised; chosen by the channel, consumed by the content builders. */
export type CaptureChannel = 'edit' | 'exec_failure' | 'exec_success' | 'network' | 'generic';

/** Reason codes for a skip. They name a rule, never payload text; each is also a counter suffix. */
export const SKIP_REASONS = [
  'own_tool',
  'read_not_captured',
  'exec_output_not_captured',
  'unknown_tool',
  'undeclared_mcp',
  'disabled_by_config',
  'failure_not_captured',
  'interrupted',
  'no_prior_failure',
  'below_length_floor',
  'missing_fields',
  'no_project',
  'invalid_payload',
] as const;
/** One skip reason. */
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The policy's answer for one event. */
export type CaptureDecision =
  | { readonly action: 'capture'; readonly channel: CaptureChannel }
  | { readonly action: 'skip'; readonly reason: SkipReason };

/** What the policy reads: the envelope only. */
export interface CaptureEnvelope {
  readonly event: CaptureEvent;
  readonly toolName: string;
  /** The origin the envelope classifies to, with the rule that produced it. */
  readonly origin: OriginExplanation;
  /** True for mnemo's own MCP tools (see `isOwnTool`). */
  readonly ownTool: boolean;
  /** PostToolUseFailure's `is_interrupt`: the user stopped the tool, it did not fail. */
  readonly interrupted?: boolean;
}

const EDIT_TOOLS = new Set(['edit', 'write', 'multiedit', 'notebookedit']);
const EXEC_TOOLS = new Set(['bash', 'powershell']);

function setting(toolName: string, config: CapturePolicyConfig): ToolCaptureSetting {
  const key = normaliseToolName(toolName);
  if (key === '') return 'default';
  const table = new Map<string, ToolCaptureSetting>();
  for (const [rawKey, value] of Object.entries(config.tools)) {
    const normalised = normaliseToolName(rawKey);
    if (normalised === '' || !(TOOL_CAPTURE_SETTINGS as readonly unknown[]).includes(value))
      continue;
    // Two spellings of one key that disagree: skipping is the conservative reading.
    table.set(normalised, table.get(normalised) === 'skip' ? 'skip' : value);
  }
  const exact = table.get(key);
  if (exact !== undefined && exact !== 'default') return exact;
  if (key.startsWith('mcp__')) {
    const server = table.get(`${key.slice(0, key.indexOf('__', 5))}__*`);
    if (server !== undefined) return server;
  }
  return 'default';
}

function defaultDecision(envelope: CaptureEnvelope): CaptureDecision {
  const key = normaliseToolName(envelope.toolName);
  const { origin, reason } = envelope.origin;
  if (envelope.event === 'PostToolUseFailure') {
    if (!EXEC_TOOLS.has(key)) return { action: 'skip', reason: 'failure_not_captured' };
    return { action: 'capture', channel: 'exec_failure' };
  }
  if (EDIT_TOOLS.has(key)) return { action: 'capture', channel: 'edit' };
  if (EXEC_TOOLS.has(key)) return { action: 'capture', channel: 'exec_success' };
  switch (origin) {
    case 'network':
      return { action: 'capture', channel: 'network' };
    case 'local_read':
      return { action: 'skip', reason: 'read_not_captured' };
    case 'local_exec':
      return { action: 'skip', reason: 'exec_output_not_captured' };
    case 'local_edit':
      // A declared local_edit MCP tool: model-authored file changes, summarised generically.
      return { action: 'capture', channel: 'generic' };
    default:
      return {
        action: 'skip',
        reason: reason === 'undeclared_mcp_tool' ? 'undeclared_mcp' : 'unknown_tool',
      };
  }
}

/**
 * Decides whether one tool event is captured, and how. Total over its input; reads no content. The user's
 * per-tool setting can switch a capture off, or on for a tool that is skipped by default (its origin, and
 * so its trust and quarantine, stay whatever the channel says); it can never capture mnemo's own tools or
 * an interrupted call.
 */
export function decideCapture(
  envelope: CaptureEnvelope,
  config: CapturePolicyConfig = DEFAULT_CAPTURE_POLICY,
): CaptureDecision {
  if (envelope.ownTool) return { action: 'skip', reason: 'own_tool' };
  if (envelope.event === 'PostToolUseFailure' && envelope.interrupted === true) {
    return { action: 'skip', reason: 'interrupted' };
  }
  const chosen = setting(envelope.toolName, config);
  if (chosen === 'skip') return { action: 'skip', reason: 'disabled_by_config' };
  const decision = defaultDecision(envelope);
  if (chosen === 'capture' && decision.action === 'skip') {
    return { action: 'capture', channel: 'generic' };
  }
  return decision;
}
