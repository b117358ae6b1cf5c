import { resolve } from 'node:path';

import { type AnchorReport, reportAnchors } from '../../anchors/anchor-report.js';
import type { App } from '../../app/open-app.js';
import { injectionEligibility } from '../../core/gate/injection-eligibility.js';
import type { WithheldReason } from '../../core/injection/injectable.js';
import type { Memory } from '../../core/memory.js';
import { parseOriginClass, trustBand } from '../../core/origin/origin-class.js';
import { getExistingMemory } from '../../review/explain-memory.js';
import type { AuditEntry, InjectionRecord, MemoryStore } from '../../store/store.js';
import { type ClusterInfo, readCluster } from '../../write/fragment-cluster.js';
import { formatAnchors, WITHHELD_TEXT } from '../anchor-text.js';
import type { CliContext } from '../cli-context.js';
import type { CliIo } from '../cli-io.js';
import { writeOut } from '../cli-io.js';
import { formatMemoryDetail } from '../format.js';
import { projectKeyFromOption } from '../project-option.js';

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
  /** Whether session start and prompt recall inject it, and every reason they do not. */
  injectable: { eligible: boolean; reasons: readonly WithheldReason[] };
  /** Its code anchors and what happened to each cited file since (checked from `--project`/cwd). */
  anchors: AnchorReport;
  /** The newest ledger rows that injected or withheld it (of the last {@link LEDGER_SCAN} rows). */
  ledger: { lastInjected: LedgerMention | null; lastWithheld: LedgerMention | null };
  audit: AuditEntry[];
  /** The fragment cluster it is quarantined in (threat model W8), or null. */
  cluster: ClusterInfo | null;
}

/** One ledger row that names a memory. */
export interface LedgerMention {
  at: string;
  sessionId: string;
  event: string;
  reasons?: string[];
  /** The injection showed it as a one-line index entry, not in full. */
  indexLine?: boolean;
}

/** Ledger rows read for the explanation, newest first. */
export const LEDGER_SCAN = 500;

/** Where an explanation checks anchors from: the project of `--project` or the working directory. */
export interface ExplainWhere {
  projectKey: string | null;
  dir: string | null;
}

/** The directory and project of `--project <dir>` (or the working directory). */
export function explainWhere(io: CliIo, project: string | undefined): ExplainWhere {
  return { projectKey: projectKeyFromOption(io, project), dir: resolve(io.cwd, project ?? '.') };
}

/** Builds the explanation of one memory. */
export async function explainMemory(
  app: App,
  memory: Memory,
  where: ExplainWhere,
): Promise<MemoryExplanation> {
  const { store } = app;
  const anchors = await reportAnchors(app, memory, where.projectKey, where.dir);
  const eligibility = injectionEligibility(memory, {
    proactiveLocal: app.config.injection.proactiveLocal,
  });
  const reasons: WithheldReason[] = [...eligibility.reasons];
  if (anchors.status === 'gone') reasons.push('cited_files_deleted');
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
    injectable: { eligible: reasons.length === 0, reasons },
    anchors,
    ledger: await ledgerMentions(store, memory.id),
    audit: await store.auditTrail(memory.id),
    cluster: (await readCluster(store, memory.id)) ?? null,
  };
}

async function ledgerMentions(
  store: MemoryStore,
  id: string,
): Promise<MemoryExplanation['ledger']> {
  const rows: InjectionRecord[] = await store.listInjections({ limit: LEDGER_SCAN });
  const injected = rows.find((row) => row.memoryIds.includes(id));
  const withheld = rows.find((row) => row.withheld.some((w) => w.id === id));
  const mention = (row: InjectionRecord | undefined, reasons?: string[]): LedgerMention | null =>
    row === undefined
      ? null
      : { at: row.at, sessionId: row.sessionId, event: row.event, ...(reasons ? { reasons } : {}) };
  const last = mention(injected);
  return {
    lastInjected:
      last !== null && injected?.indexIds.includes(id) === true
        ? { ...last, indexLine: true }
        : last,
    lastWithheld: mention(withheld, withheld?.withheld.find((w) => w.id === id)?.reasons),
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
      injectable.eligible
        ? `yes (proactively, at session start and prompt time${explanation.anchors.status === 'stale' ? ', labelled stale and ranked lower' : ''})`
        : 'no',
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = rows.map(([name, value]) => `${`${name}:`.padEnd(width)}${value}`);
  for (const reason of injectable.reasons)
    lines.push(`${' '.repeat(width)}- ${WITHHELD_TEXT[reason].replaceAll('<id>', explanation.id)}`);
  const { lastInjected, lastWithheld } = explanation.ledger;
  const field = (name: string) => `${name}:`.padEnd(Math.max(width, name.length + 2));
  if (lastInjected !== null) {
    lines.push(
      `${field('last injected')}${lastInjected.at} (${lastInjected.event}${lastInjected.indexLine === true ? ' as an index line' : ''}, session ${lastInjected.sessionId})`,
    );
  }
  if (lastWithheld !== null) {
    lines.push(
      `${field('last withheld')}${lastWithheld.at} (${lastWithheld.event}, session ${lastWithheld.sessionId}): ${(lastWithheld.reasons ?? []).join(', ')}`,
    );
  }
  const { cluster } = explanation;
  if (cluster !== null) {
    lines.push(
      `${field('cluster')}${cluster.clusterId}: ${cluster.reason} (${cluster.source}); reviewed as one`,
      `${' '.repeat(width)}members: ${cluster.memberIds.join(', ')}`,
    );
  }
  lines.push('', formatAnchors(explanation.anchors).trimEnd());
  lines.push('', 'audit trail:');
  if (explanation.audit.length === 0) lines.push('  (none)');
  for (const entry of explanation.audit) {
    lines.push(`  ${entry.at}  ${entry.action}  ${JSON.stringify(entry.detail)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `mnemo get <id>`: one memory in full, superseded or not, with where it came from and whether it may
 * be injected. JSON keeps the memory's fields at the top level and adds `injectable`, `anchors`,
 * `audit` and `cluster` (its fragment cluster, or null).
 */
export async function get(
  ctx: CliContext,
  id: string,
  options: { json?: boolean; project?: string },
): Promise<void> {
  const where = explainWhere(ctx.io, options.project);
  const app = await ctx.openApp();
  const memory = await getExistingMemory(app.store, id);
  const explanation = await explainMemory(app, memory, where);
  await writeOut(
    ctx.io.stdout,
    options.json === true
      ? `${JSON.stringify(
          {
            ...memory,
            injectable: explanation.injectable,
            anchors: explanation.anchors,
            audit: explanation.audit,
            cluster: explanation.cluster,
          },
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
