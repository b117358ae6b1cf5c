/**
 * The store's self-check for `mnemo doctor` (threat model S3): page-level integrity, both full-text
 * indexes against their content table, vectors against live rows, and the audit hash chain. Reads
 * only: FTS5's `integrity-check` command is written as an INSERT but changes nothing.
 */
import { verifyAuditChain } from './sqlite-audit.js';
import type { SqliteLike } from './sqlite-like.js';

/** Full-text tables whose index must match the memories table. */
const FTS_TABLES = ['memories_fts', 'memories_terms'] as const;

/** Every problem found, one line each; `[]` when the store is healthy. */
export function integrityProblems(db: SqliteLike): string[] {
  const problems: string[] = [];
  const pages = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
  const pageLines = pages.map((row) => row.integrity_check);
  if (pageLines.join() !== 'ok') problems.push(...pageLines.map((line) => `pages: ${line}`));
  // A backup taken before a migration lacks the tables later versions add: check what it has.
  const present = new Set(
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((row) => row.name),
  );
  for (const table of FTS_TABLES.filter((name) => present.has(name))) {
    try {
      // rank = 1 also compares an external-content index with its content table.
      db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`);
    } catch (error) {
      problems.push(`${table}: ${(error as Error).message}`);
    }
  }
  const spaces = present.has('vector_spaces')
    ? (db.prepare('SELECT table_name AS name FROM vector_spaces').all() as { name: string }[])
    : [];
  for (const { name } of spaces) {
    const orphans = db
      .prepare(`SELECT count(*) AS n FROM ${name} WHERE rowid NOT IN (SELECT seq FROM memories)`)
      .get() as { n: number };
    if (orphans.n > 0) problems.push(`${name}: ${orphans.n} vectors without a memory`);
  }
  const broken = verifyAuditChain(db);
  if (broken !== null) problems.push(`audit chain breaks at entry ${broken}`);
  return problems;
}
