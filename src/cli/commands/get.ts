import { MemoryError } from '../../core/errors.js';
import {
  injectionEligibility,
  type NotInjectableReason,
} from '../../core/gate/injection-eligibility.js';
import { assertMemoryId, type Memory } from '../../core/memory.js';
import { parseOriginClass, trustBand } from '../../core/origin/origin-class.js';
import type { AuditEntry, MemoryStore } from '../../store/store.js';
import type { CliContext } from '../cli-context.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryDetail } from '../format.js';

/** Fetches a memory by id or throws NOT_FOUND with the next step. */
export async function getExistingMemory(store: MemoryStore, rawId: string): Promise<Memory> {
  const id = assertMemoryId(rawId);
  const memory = await store.getMemory(id);
  if (memory === undefined) throw notFound(id);
  return memory;
}

export function notFound(id: string): MemoryError {
  return new MemoryError('NOT_FOUND', `No memory with id ${id}. Run \`mnemo list\` to see ids.`);
}

/** Where a memory came from and what it may do: the write gate's record, in one view. */
export interface MemoryExplanation {
  id: string;
  origin: string;
  originTool: string | null;
  sessionId: string | null;
  /** The band of the stored origin, recomputed: approval never changes it. */
  trustBand: string;
  tainted: boolean;
  quarantine: Memory['quarantine'];
  redactions: number;
  gateReason: Memory['gateReason'];
  injectable: { eligible: boolean; reasons: readonly NotInjectableReason[] };
  audit: AuditEntry[];
}

const REASON_TEXT: Record<NotInjectableReason, string> = {
  origin_not_allowlisted: 'its origin is not allowlisted for proactive injection (recall only)',
  tainted: 'a model wrote it while its session held untrusted content',
  quarantine_pending: 'it awaits review (`mnemo approve <id>` or `mnemo reject <id>`)',
  quarantine_rejected: 'a person rejected it',
  superseded: 'a newer memory supersedes it',
};

/** Builds the explanation of one memory. */
export async function explainMemory(
  store: MemoryStore,
  memory: Memory,
): Promise<MemoryExplanation> {
  return {
    id: memory.id,
    origin: memory.origin,
    originTool: memory.originTool,
    sessionId: memory.sessionId,
    trustBand: trustBand(parseOriginClass(memory.origin)),
    tainted: memory.tainted,
    quarantine: memory.quarantine,
    redactions: memory.redactions,
    gateReason: memory.gateReason,
    injectable: injectionEligibility(memory),
    audit: await store.auditTrail(memory.id),
  };
}

/** The explanation as aligned text lines (shared with `mnemo get`). */
export function formatExplanation(explanation: MemoryExplanation): string {
  const { injectable } = explanation;
  const rows: [string, string][] = [
    ['origin', explanation.origin],
    ['origin tool', explanation.originTool ?? '-'],
    ['trust band', explanation.trustBand],
    ['tainted', explanation.tainted ? 'yes' : 'no'],
    ['quarantine', explanation.quarantine],
    ['redactions', String(explanation.redactions)],
    ['gate reason', explanation.gateReason],
    [
      'injectable',
      injectable.eligible ? 'yes (proactively, at session start and prompt time)' : 'no',
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = rows.map(([name, value]) => `${`${name}:`.padEnd(width)}${value}`);
  for (const reason of injectable.reasons)
    lines.push(`${' '.repeat(width)}- ${REASON_TEXT[reason]}`);
  lines.push('', 'audit trail:');
  if (explanation.audit.length === 0) lines.push('  (none)');
  for (const entry of explanation.audit) {
    lines.push(`  ${entry.at}  ${entry.action}  ${JSON.stringify(entry.detail)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `mnemo get <id>`: one memory in full, superseded or not, with where it came from and whether it may
 * be injected. JSON keeps the memory's fields at the top level and adds `injectable` and `audit`.
 */
export async function get(ctx: CliContext, id: string, options: { json?: boolean }): Promise<void> {
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  const explanation = await explainMemory(app.store, memory);
  await writeOut(
    ctx.io.stdout,
    options.json === true
      ? `${JSON.stringify(
          { ...memory, injectable: explanation.injectable, audit: explanation.audit },
          null,
          2,
        )}\n`
      : withExplanation(formatMemoryDetail(memory), memory.content, formatExplanation(explanation)),
  );
}

/** Puts the explanation between the fields and the content, so the content stays last. */
function withExplanation(detail: string, content: string, explanation: string): string {
  const tail = `\n${content}\n`;
  return detail.endsWith(tail)
    ? `${detail.slice(0, -tail.length)}\n${explanation}${tail}`
    : `${detail}\n${explanation}`;
}
