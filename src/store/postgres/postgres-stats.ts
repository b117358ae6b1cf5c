/** What `mnemo stats` shows of a PostgreSQL store: counts by kind, origin, project and vector model, and bytes. */
import type { StoreStats } from '../store.js';
import type { PgQueryable } from './pg-like.js';

export async function storeStats(db: PgQueryable, schemaVersion: number): Promise<StoreStats> {
  const groups = async (column: string): Promise<Record<string, number>> => {
    const { rows } = await db.query<{ k: string; n: number }>(
      `SELECT ${column} AS k, count(*)::int AS n FROM memories WHERE ${column} IS NOT NULL
           GROUP BY ${column} ORDER BY ${column}`,
    );
    return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
  };
  const { rows } = await db.query<{
    memories: number;
    superseded: number;
    bytes: string | null;
  }>(
    `SELECT (SELECT count(*)::int FROM memories) AS memories,
           (SELECT count(*)::int FROM memories WHERE superseded_by IS NOT NULL) AS superseded,
           (SELECT sum(pg_total_relation_size(c.oid))::bigint FROM pg_class c
              WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')) AS bytes`,
  );
  const totals = rows[0];
  return {
    schemaVersion: schemaVersion,
    memories: Number(totals?.memories ?? 0),
    superseded: Number(totals?.superseded ?? 0),
    byKind: await groups('kind'),
    byOrigin: await groups('origin'),
    byProject: await groups('project_key'),
    vectors: await groups('embedding_model'),
    sizeBytes: totals?.bytes === null || totals?.bytes === undefined ? null : Number(totals.bytes),
  };
}
