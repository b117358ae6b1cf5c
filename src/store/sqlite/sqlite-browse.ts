/**
 * Reads for browsing a large store without loading it: pages newest first and counts (both walk the
 * memories_browse index, schema v7), group sizes (the review inbox's "by page, site,
 * tool or session", the dashboard's charts) and the heat inputs of warm memories. None reads content.
 */
import type { Memory } from '../../core/memory.js';
import { groupColumn } from '../browse-rules.js';
import {
  type HeatInput,
  type HeatPage,
  type ListOptions,
  type MemoryFilter,
  type MemoryGroupCount,
  type MemoryGroupQuery,
} from '../store.js';
import type { SqliteLike } from './sqlite-like.js';
import { type MemoryRow, toMemory } from './sqlite-rows.js';
import { buildFilter, listSql } from './sqlite-search.js';

/** Group sizes under the filter; see `MemoryStore.countMemoryGroups`. */
export function countGroupsIn(
  db: SqliteLike,
  filter: MemoryFilter,
  query: MemoryGroupQuery,
): MemoryGroupCount[] {
  const column = groupColumn(query.by);
  if (!(query.limit > 0)) return [];
  const where = buildFilter(filter);
  const day = query.perDay === true;
  const rows = db
    .prepare(
      `SELECT ${column} AS key, ${day ? 'substr(m.created_at, 1, 10)' : 'NULL'} AS day, count(*) AS count
       FROM memories m WHERE ${where.sql}
       GROUP BY key${day ? ', day' : ''}
       ORDER BY count DESC, key IS NULL, key${day ? ', day' : ''} LIMIT ?`,
    )
    .all(...where.params, Math.floor(query.limit)) as {
    key: string | null;
    day: string | null;
    count: number;
  }[];
  return rows.map((row) =>
    day
      ? { key: row.key, day: row.day ?? '', count: row.count }
      : { key: row.key, count: row.count },
  );
}

/** Heat inputs of warm memories under the filter, one keyset page; see `MemoryStore.listHeat`. */
export function listHeatIn(db: SqliteLike, filter: MemoryFilter, page: HeatPage): HeatInput[] {
  if (!(page.limit > 0)) return [];
  const where = buildFilter(filter);
  return db
    .prepare(
      `SELECT m.id AS id, m.heat_base AS heatBase, m.created_at AS createdAt,
         m.updated_at AS updatedAt, m.last_accessed_at AS lastAccessedAt
       FROM memories m INDEXED BY memories_warm
       WHERE ${where.sql} AND m.heat_base > 0 AND m.id > ?
       ORDER BY m.id LIMIT ?`,
    )
    .all(...where.params, page.afterId ?? '', Math.floor(page.limit)) as HeatInput[];
}

/** One page of the filter, newest first; see `MemoryStore.listMemories`. */
export function listIn(db: SqliteLike, options: ListOptions): Memory[] {
  if (!(options.limit > 0)) return [];
  const list = listSql(options);
  return (db.prepare(list.sql).all(...list.params) as MemoryRow[]).map(toMemory);
}

/** The number of memories matching the filter; see `MemoryStore.countMemories`. */
export function countIn(db: SqliteLike, filter: MemoryFilter): number {
  const where = buildFilter(filter);
  return (
    db.prepare(`SELECT count(*) AS n FROM memories m WHERE ${where.sql}`).get(...where.params) as {
      n: number;
    }
  ).n;
}
