/**
 * Copies one store into another through the port only (so any backend to any backend): every memory
 * with its vector, model id, origin and provenance; the audit log, appended to the target's chain with
 * pointers to the original entries; the injection ledger. Idempotent and resumable: memories already in
 * the target (by id) are skipped, audit entries already copied from this source are skipped, ledger rows
 * already present are skipped, so an interrupted copy is finished by running it again. Ends by checking
 * the target against the source and reporting every difference.
 */
import { isMemoryError } from '../core/errors.js';
import type { InjectionRecord, MemoryStore } from './store.js';
import { carryVectorRules } from './vector-rules.js';

export type CopyPhase = 'memories' | 'audit' | 'ledger' | 'verify';

export interface CopyProgress {
  phase: CopyPhase;
  done: number;
  total: number;
}

export interface CopyReport {
  memories: { source: number; imported: number; skipped: number; conflicts: string[] };
  audit: { source: number; appended: number };
  ledger: { source: number; appended: number };
  /** Differences found by the final check; empty when the target holds everything the source does. */
  problems: string[];
}

export interface CopyOptions {
  /** Names the source in copied audit entries (`copiedFrom.source`); the same name resumes a copy. */
  sourceName: string;
  onProgress?: (progress: CopyProgress) => void;
}

const PAGE = 500;

export async function copyStore(
  source: MemoryStore,
  target: MemoryStore,
  options: CopyOptions,
): Promise<CopyReport> {
  const progress = options.onProgress ?? (() => undefined);
  const total = await source.countMemories({
    includeSuperseded: true,
    quarantine: ['none', 'pending', 'approved', 'rejected'],
  });
  const report: CopyReport = {
    memories: { source: 0, imported: 0, skipped: 0, conflicts: [] },
    audit: { source: 0, appended: 0 },
    ledger: { source: 0, appended: 0 },
    problems: [],
  };
  // Before any vector arrives, so the target's record of which rule built its vectors stays true.
  await carryVectorRules(source, target);
  const ids: string[] = [];
  for await (const record of source.exportMemories()) {
    ids.push(record.id);
    try {
      const outcome = await target.importMemory(record);
      report.memories[outcome === 'imported' ? 'imported' : 'skipped'] += 1;
    } catch (error) {
      // The same text under another id in that project: the target already knows it; report, go on.
      if (!isMemoryError(error, 'CONFLICT')) throw error;
      report.memories.conflicts.push(record.id);
    }
    report.memories.source += 1;
    if (report.memories.source % 50 === 0 || report.memories.source === total) {
      progress({ phase: 'memories', done: report.memories.source, total });
    }
  }
  for (let after = 0; ; ) {
    const page = await source.readAudit(after, PAGE);
    if (page.length === 0) break;
    report.audit.source += page.length;
    report.audit.appended += await target.importAudit(options.sourceName, page);
    after = page.at(-1)?.seq ?? after;
    progress({ phase: 'audit', done: report.audit.source, total: report.audit.source });
  }
  const ledger: InjectionRecord[] = [];
  for (let after = 0; ; ) {
    const page = await source.readInjections(after, PAGE);
    if (page.length === 0) break;
    ledger.push(...page);
    report.ledger.appended += await target.importInjections(page);
    after = page.at(-1)?.seq ?? after;
    progress({ phase: 'ledger', done: ledger.length, total: ledger.length });
  }
  report.ledger.source = ledger.length;
  report.problems = await verify(target, ids, report, ledger, options);
  progress({ phase: 'verify', done: 1, total: 1 });
  return report;
}

async function verify(
  target: MemoryStore,
  ids: readonly string[],
  report: CopyReport,
  ledger: readonly InjectionRecord[],
  options: CopyOptions,
): Promise<string[]> {
  const problems: string[] = [];
  let found = 0;
  for (let i = 0; i < ids.length; i += PAGE)
    found += (await target.getMemories(ids.slice(i, i + PAGE))).length;
  const expected = ids.length - report.memories.conflicts.length;
  if (found !== expected)
    problems.push(`memories: ${found} of ${expected} copied memories are in the target`);
  if (report.memories.conflicts.length > 0) {
    problems.push(
      `memories: ${report.memories.conflicts.length} not copied because the target holds the same text under another id (${report.memories.conflicts.slice(0, 5).join(', ')})`,
    );
  }
  let copiedAudit = 0;
  for (let after = 0; ; ) {
    const page = await target.readAudit(after, PAGE);
    if (page.length === 0) break;
    copiedAudit += page.filter(
      (entry) =>
        (entry.detail['copiedFrom'] as { source?: string } | undefined)?.source ===
        options.sourceName,
    ).length;
    after = page.at(-1)?.seq ?? after;
  }
  if (copiedAudit !== report.audit.source)
    problems.push(`audit: ${copiedAudit} of ${report.audit.source} entries are in the target`);
  const key = (row: InjectionRecord): string =>
    JSON.stringify([row.at, row.sessionId, row.event, row.memoryIds]);
  const present = new Set<string>();
  for (let after = 0; ; ) {
    const page = await target.readInjections(after, PAGE);
    if (page.length === 0) break;
    for (const row of page) present.add(key(row));
    after = page.at(-1)?.seq ?? after;
  }
  const missing = ledger.filter((row) => !present.has(key(row))).length;
  if (missing > 0)
    problems.push(`ledger: ${missing} of ${ledger.length} rows are missing from the target`);
  return problems;
}
