/**
 * One keyset page of an export: memories in id order with their vectors, read per vector space in one
 * statement each rather than one per memory.
 */
import type { ExportedMemory } from '../store.js';
import type { PgQueryable } from './pg-like.js';
import { exportAnchorSets } from './postgres-anchors.js';
import { M_COLUMNS, type PgMemoryRow, toMemory } from './postgres-rows.js';
import { embeddingRead, listSpaces, valuesOf } from './postgres-vectors.js';

export const EXPORT_PAGE = 200;

export async function exportPage(db: PgQueryable, after: string): Promise<ExportedMemory[]> {
  const { rows } = await db.query<PgMemoryRow>(
    `SELECT ${M_COLUMNS} FROM memories m WHERE m.id > $1 ORDER BY m.id LIMIT $2`,
    [after, EXPORT_PAGE],
  );
  const vectors = new Map<string, { model: string; dims: number; values: number[] }>();
  const seqs = rows.filter((row) => row.embedding_model !== null).map((row) => Number(row.seq));
  if (seqs.length > 0) {
    for (const space of await listSpaces(db)) {
      const found = await db.query<{ seq: string; embedding: unknown }>(
        `SELECT v.seq, ${embeddingRead(space)} AS embedding FROM ${space.table} v WHERE v.seq = ANY($1::bigint[])`,
        [seqs],
      );
      for (const row of found.rows) {
        vectors.set(`${space.model}\u0000${Number(row.seq)}`, {
          model: space.model,
          dims: space.dims,
          values: Array.from(valuesOf(space, row.embedding)),
        });
      }
    }
  }
  const anchors = await exportAnchorSets(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...toMemory(row),
    vector:
      row.embedding_model === null
        ? null
        : (vectors.get(`${row.embedding_model}\u0000${Number(row.seq)}`) ?? null),
    anchors: anchors.get(row.id) ?? null,
  }));
}
