/** `stats()` of the SQLite store: counts by kind, origin, project and vector model, and the file size. */
import type { StoreStats } from '../store.js';
import type { SqliteLike } from './sqlite-like.js';

/** The store's counts, read in the caller's connection. */
export function statsOf(db: SqliteLike, schemaVersion: number): StoreStats {
  const groups = (column: string): Record<string, number> => {
    const rows = db
      .prepare(
        `SELECT ${column} AS k, count(*) AS n FROM memories WHERE ${column} IS NOT NULL
             GROUP BY ${column} ORDER BY ${column}`,
      )
      .all() as { k: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.k, r.n]));
  };
  const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
  return {
    schemaVersion,
    memories: count('SELECT count(*) AS n FROM memories'),
    superseded: count('SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL'),
    byKind: groups('kind'),
    byOrigin: groups('origin'),
    byProject: groups('project_key'),
    vectors: groups('embedding_model'),
    sizeBytes: count(
      'SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()',
    ),
  };
}
