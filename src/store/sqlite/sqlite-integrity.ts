/**
 * The store's self-check for `mnemo doctor` (threat model S3): page-level integrity, both full-text
 * indexes (the trigram one against its content table, the lexical one row by row), vectors against live
 * rows, and the audit hash chain. Reads
 * only: FTS5's `integrity-check` command is written as an INSERT but changes nothing.
 */
import { verifyAuditChain } from './sqlite-audit.js';
import type { SqliteLike } from './sqlite-like.js';

/**
 * Full-text tables: their own structure is checked, and the external-content ones against `memories`
 * (memories_fts is a backup's from before v7, which replaced it with memories_lex).
 */
const FTS_TABLES = ['memories_fts', 'memories_lex', 'memories_terms'] as const;

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
  if (present.has('lexical_state')) problems.push(...lexicalIndexProblems(db));
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

/**
 * The contentless lexical index cannot be compared with its content by FTS5, so the rows are: one entry
 * per memory, none for a memory that is gone, and totals that count every entry.
 */
function lexicalIndexProblems(db: SqliteLike): string[] {
  const n = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
  const problems: string[] = [];
  const missing = n(
    'SELECT count(*) AS n FROM memories WHERE seq NOT IN (SELECT id FROM memories_lex_docsize)',
  );
  if (missing > 0)
    problems.push(`memories_lex: ${missing} memories missing from the lexical index`);
  const orphans = n(
    'SELECT count(*) AS n FROM memories_lex_docsize WHERE id NOT IN (SELECT seq FROM memories)',
  );
  if (orphans > 0) problems.push(`memories_lex: ${orphans} index entries without a memory`);
  const docs = n('SELECT docs AS n FROM lexical_state WHERE id = 1');
  const entries = n('SELECT count(*) AS n FROM memories_lex_docsize');
  if (docs !== entries) {
    problems.push(`memories_lex: totals count ${docs} documents, the index holds ${entries}`);
  }
  return problems;
}
