/**
 * What the three MCP write tools (`remember`, `checkpoint`, `supersede_memory`) share: the taint of the
 * model's session (from the remember claim the PreToolUse hook left; none means tainted), the caller's
 * extra fields as ignored claims, and the translation of a write outcome into what the model reads.
 * The origin is always `agent` or `agent_tainted`: nothing in the arguments can change it (W4, W5).
 */
import { MemoryError } from '../core/errors.js';
import type { Memory, MemoryKind } from '../core/memory.js';
import type { OriginEnvelope } from '../core/origin/classify-origin.js';
import type { OriginClass } from '../core/origin/origin-class.js';
import { spoolPaths, spoolUsage } from '../spool/spool-paths.js';
import { resolveAgentTaint } from '../write/resolve-agent-taint.js';
import { writeMemory, type WriteOutcome } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { writableProject } from './memory-access.js';
import type { ToolContext } from './tool.js';

/** The label stored as a memory's `originTool` for writes through this server. */
export function originToolOf(tool: string): string {
  return `mcp:${tool}`;
}

/** The channel of an agent write, and the session it was linked to (null when none could be). */
export interface AgentChannel {
  envelope: Extract<OriginEnvelope, { channel: 'mcp_remember' }>;
  sessionId: string | null;
}

/** Resolves the session taint of `content` (fails closed inside `resolveAgentTaint`). */
export async function agentChannel(ctx: ToolContext, content: string): Promise<AgentChannel> {
  const spool = spoolPaths(ctx.app.config.home);
  const taint = await resolveAgentTaint(ctx.app.store, content, {
    log: ctx.log,
    spoolPending: () => spoolUsage(spool).files > 0,
  });
  ctx.log.info('mcp write taint', { tainted: taint.tainted, reason: taint.reason });
  return {
    envelope: { channel: 'mcp_remember', tainted: taint.tainted },
    sessionId: taint.sessionId,
  };
}

/**
 * The arguments a tool did not declare (`force`, `origin`, `write_class`, `pinned`...): claims that
 * grant nothing. Only their names reach the log (the write service's reporter).
 */
export function claimsOf(
  args: Record<string, unknown>,
  declared: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !declared.includes(key)));
}

/**
 * A model-supplied memory written in the caller's project: the session taint decides the origin, the
 * arguments outside `declared` are logged as claims. Shared by `remember` and `checkpoint`.
 */
export async function writeAgentMemory(
  ctx: ToolContext,
  tool: string,
  args: { content: string; tags?: string[] | undefined } & Record<string, unknown>,
  kind: MemoryKind | undefined,
  declared: readonly string[],
): Promise<WriteOutcome> {
  const projectKey = await writableProject(ctx);
  const channel = await agentChannel(ctx, args.content);
  return writeMemory(writeDepsFrom(ctx.app), {
    envelope: channel.envelope,
    content: args.content,
    projectKey,
    kind,
    tags: args.tags,
    sessionId: channel.sessionId,
    originTool: originToolOf(tool),
    claims: claimsOf(args, declared),
    workingDir: await ctx.projectDir(),
  });
}

/** The structured result of a write. */
export interface WriteReport {
  decision: 'stored' | 'merged';
  id: string;
  origin: string;
  quarantine: string;
  notes: string[];
}

const TAINT_EXPLANATION =
  'Untrusted content (a web page, an unknown tool, or a session mnemo could not identify) may have shaped it, ' +
  "so it is held for a person's review and will not be injected into sessions automatically.";

/**
 * Turns an outcome into the reply, or throws the `MemoryError` whose message tells the model what to do
 * (refusals are the model's to act on, never server faults).
 */
export function describeWrite(
  outcome: WriteOutcome,
  verb: string,
): { structured: WriteReport; text: string } {
  if (outcome.decision === 'reject') {
    const detail = outcome.notes.join('; ');
    switch (outcome.reason) {
      case 'flood_budget':
        throw new MemoryError(
          'CONFLICT',
          `Not saved: too many memories from this session recently (${detail}). Save only what matters and try later.`,
        );
      case 'previously_rejected':
        throw new MemoryError(
          'CONFLICT',
          `Not saved: ${detail}. Do not save this again; ask the user if it matters.`,
        );
      default:
        throw new MemoryError('INVALID_INPUT', `Not saved: ${detail}`);
    }
  }
  return reportFor(outcome.memory, outcome.origin, outcome.decision, outcome.notes, verb);
}

/** The reply for a memory that was stored or merged. */
export function reportFor(
  memory: Memory,
  origin: OriginClass,
  decision: 'store' | 'merge',
  notes: readonly string[],
  verb: string,
): { structured: WriteReport; text: string } {
  const structured: WriteReport = {
    decision: decision === 'store' ? 'stored' : 'merged',
    id: memory.id,
    origin,
    quarantine: memory.quarantine,
    notes: [...notes],
  };
  const lines = [
    decision === 'store'
      ? `${verb} as memory ${memory.id} (origin ${origin}).`
      : `Already remembered as memory ${memory.id}; merged instead of duplicating.`,
  ];
  if (origin === 'agent_tainted') lines.push(TAINT_EXPLANATION);
  else if (memory.quarantine === 'pending') lines.push("It is held for a person's review.");
  if (notes.length > 0) lines.push(`Notes: ${notes.join('; ')}.`);
  return { structured, text: lines.join('\n') };
}
