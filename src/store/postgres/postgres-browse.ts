/**
 * Reads for browsing a large store without loading it, as on SQLite (sqlite-browse.ts): pages newest
 * first and counts (memories_browse, schema v4), group sizes (the review inbox's "by page, site, tool or
 * session", the dashboard's charts) and the heat inputs of warm memories (memories_warm). Only pages read
 * content.
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
import type { PgQueryable } from './pg-like.js';
import { isoOf, isoOrNull, M_COLUMNS, type PgMemoryRow, toMemory } from './postgres-rows.js';
import { buildFilter, Params } from './postgres-search.js';

/** Group sizes under the filter; see `MemoryStore.countMemoryGroups`. */
export async function countGroupsIn(
  db: PgQueryable,
  filter: MemoryFilter,
  query: MemoryGroupQuery,
): Promise<MemoryGroupCount[]> {
  const column = groupColumn(query.by);
  if (!(query.limit > 0)) return [];
  const params = new Params();
  const where = buildFilter(filter, params);
  const day = query.perDay === true;
  // The day of creation in UTC, as the ISO text SQLite stores begins with; keys sort in byte order
  // (COLLATE "C") as SQLite's do, so ties come out in the same order on both backends.
  const dayExpr = `to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const { rows } = await db.query<{ key: string | null; day: string | null; count: number }>(
    `SELECT key, day, count FROM (
       SELECT ${column} AS key, ${day ? dayExpr : 'NULL::text'} AS day, count(*)::int AS count
       FROM memories m WHERE ${where} GROUP BY 1, 2) AS g
     ORDER BY count DESC, key IS NULL, key COLLATE "C", day
     LIMIT ${params.add(Math.floor(query.limit))}`,
    params.values,
  );
  return rows.map((row) =>
    day
      ? { key: row.key, day: row.day ?? '', count: Number(row.count) }
      : { key: row.key, count: Number(row.count) },
  );
}

/** Heat inputs of warm memories under the filter, one keyset page; see `MemoryStore.listHeat`. */
export async function listHeatIn(
  db: PgQueryable,
  filter: MemoryFilter,
  page: HeatPage,
): Promise<HeatInput[]> {
  if (!(page.limit > 0)) return [];
  const params = new Params();
  const where = buildFilter(filter, params);
  const after = params.add(page.afterId ?? '');
  const { rows } = await db.query<{
    id: string;
    heat_base: number;
    created_at: Date | string;
    updated_at: Date | string;
    last_accessed_at: Date | string | null;
  }>(
    `SELECT m.id, m.heat_base, m.created_at, m.updated_at, m.last_accessed_at
     FROM memories m WHERE ${where} AND m.heat_base > 0 AND m.id COLLATE "C" > ${after}
     ORDER BY m.id COLLATE "C" LIMIT ${params.add(Math.floor(page.limit))}`,
    params.values,
  );
  return rows.map((row) => ({
    id: row.id,
    heatBase: Number(row.heat_base),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    lastAccessedAt: isoOrNull(row.last_accessed_at),
  }));
}

/** One page of the filter, newest first; see `MemoryStore.listMemories`. */
export async function listIn(db: PgQueryable, options: ListOptions): Promise<Memory[]> {
  if (!(options.limit > 0)) return [];
  const params = new Params();
  const where = buildFilter(options, params);
  const limit = params.add(Math.floor(options.limit));
  const offset = params.add(Math.max(0, Math.floor(options.offset ?? 0)));
  const { rows } = await db.query<PgMemoryRow>(
    `SELECT ${M_COLUMNS} FROM memories m WHERE ${where}
     ORDER BY m.created_at DESC, m.seq DESC LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  return rows.map(toMemory);
}

/** The number of memories matching the filter; see `MemoryStore.countMemories`. */
export async function countIn(db: PgQueryable, filter: MemoryFilter): Promise<number> {
  const params = new Params();
  const where = buildFilter(filter, params);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM memories m WHERE ${where}`,
    params.values,
  );
  return Number(rows[0]?.n ?? 0);
}
