/**
 * The write operations of the PostgreSQL store, the same rules as the SQLite adapter's. Each function
 * runs inside the caller's transaction and touches the row, the vector table and the audit buffer
 * together, so a rollback at any point leaves no trace. The tsvector follows the row's lexical columns by
 * construction (a generated column); contexts and term statistics follow through postgres-lexical.ts.
 */
import { MemoryError } from '../../core/errors.js';
import { isMemoryId, type Memory, type MemoryId, validateNewMemory } from '../../core/memory.js';
import { type HeatSubject, nextHeatOnUse } from '../../core/ranking/heat.js';
import type { IdSource } from '../../ports/ids.js';
import { contentHash } from '../content-hash.js';
import type {
  ExportedMemory,
  ForgetOptions,
  ImportOutcome,
  MemoryPatch,
  RememberOutcome,
} from '../store.js';
import {
  ACCESS_BATCH,
  type Author,
  earnsHeat,
  newMemoryAudit,
  newMemoryRow,
  type PreparedMemory,
} from '../write-rules.js';
import type { PgQueryable } from './pg-like.js';
import { insertAnchorSet } from './postgres-anchors.js';
import type { AuditBuffer } from './postgres-audit.js';
import { fieldsOf, indexNewRow, type LexicalTally, refreshAround } from './postgres-lexical.js';
import {
  insertMemoryRow,
  isoOf,
  isoOrNull,
  lexicalColumns,
  MEMORY_COLUMNS,
  type PgMemoryRow,
  selectRowById,
  toMemory,
} from './postgres-rows.js';
import { deleteAllVectors, putVector, type VectorSupport } from './postgres-vectors.js';

export interface PgWriteContext {
  db: PgQueryable;
  ids: IdSource;
  /** ISO-8601 time of this write. */
  at: string;
  vectors: VectorSupport;
  audit: AuditBuffer;
  /** The term statistics' changes, written just before commit. */
  lexical: LexicalTally;
  /** Stamped on new memories; undefined leaves their author unknown. */
  author?: Author | undefined;
}

/** Records one genuine use of each id (unknown ids ignored), heat by the shared rule of core/ranking. */
export async function recordAccessIn(ctx: PgWriteContext, ids: readonly MemoryId[]): Promise<void> {
  const { rows } = await ctx.db.query<{
    id: string;
    origin: string;
    heat_base: number;
    created_at: Date;
    updated_at: Date;
    last_accessed_at: Date | null;
  }>(
    `SELECT id, origin, heat_base, created_at, updated_at, last_accessed_at FROM memories
     WHERE id = ANY($1::text[]) FOR UPDATE`,
    [ids.slice(0, ACCESS_BATCH)],
  );
  if (rows.length === 0) return;
  const now = Date.parse(ctx.at);
  const heats = rows.map((row) => {
    const subject: HeatSubject = {
      heatBase: Number(row.heat_base),
      createdAt: isoOf(row.created_at),
      updatedAt: isoOf(row.updated_at),
      lastAccessedAt: isoOrNull(row.last_accessed_at),
    };
    return nextHeatOnUse(subject, now, earnsHeat(row.origin));
  });
  await ctx.db.query(
    `UPDATE memories m SET access_count = m.access_count + 1, last_accessed_at = $1, heat_base = u.heat
     FROM unnest($2::text[], $3::float8[]) AS u(id, heat) WHERE m.id = u.id`,
    [ctx.at, rows.map((row) => row.id), heats],
  );
}

export async function reread(db: PgQueryable, id: MemoryId): Promise<Memory> {
  const row = await selectRowById(db, id);
  if (row === undefined) throw new Error(`memory ${id} vanished inside its own transaction`);
  return toMemory(row);
}

async function activeTwin(
  db: PgQueryable,
  projectKey: string,
  hash: string,
): Promise<PgMemoryRow | undefined> {
  const { rows } = await db.query<PgMemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories
     WHERE project_key = $1 AND content_hash = $2 AND superseded_by IS NULL`,
    [projectKey, hash],
  );
  return rows[0];
}

async function insertNew(
  ctx: PgWriteContext,
  prepared: PreparedMemory,
  supersedes: MemoryId | null,
  id: MemoryId = ctx.ids.next(),
): Promise<Memory> {
  if (!isMemoryId(id)) throw new Error(`IdSource produced "${id}", which is not a ULID`);
  const memory = newMemoryRow(prepared, id, ctx.at, supersedes, ctx.author);
  const seq = await insertMemoryRow(ctx.db, memory);
  await indexNewRow(ctx.db, ctx.lexical, seq);
  if (prepared.vector !== undefined)
    await putVector(ctx.db, ctx.vectors, seq, null, prepared.vector);
  if (prepared.anchors !== undefined) await insertAnchorSet(ctx.db, id, prepared.anchors, ctx.at);
  ctx.audit.add(
    ctx.at,
    supersedes === null ? 'remember' : 'supersede',
    id,
    newMemoryAudit(memory, prepared),
  );
  return reread(ctx.db, id);
}

export async function rememberIn(
  ctx: PgWriteContext,
  prepared: PreparedMemory,
): Promise<RememberOutcome> {
  const twin = await activeTwin(ctx.db, prepared.fields.projectKey, prepared.hash);
  if (twin !== undefined) {
    await recordAccessIn(ctx, [twin.id]);
    ctx.audit.add(ctx.at, 'dedupe', twin.id, { contentHash: prepared.hash });
    return { memory: await reread(ctx.db, twin.id), created: false };
  }
  return { memory: await insertNew(ctx, prepared, null), created: true };
}

function notFound(id: MemoryId): MemoryError {
  return new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
}

export async function supersedeIn(
  ctx: PgWriteContext,
  previousId: MemoryId,
  prepared: PreparedMemory,
): Promise<{ previous: Memory; current: Memory }> {
  const previous = await selectRowById(ctx.db, previousId);
  if (previous === undefined) throw notFound(previousId);
  if (previous.superseded_by !== null) {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${previousId} is already superseded by ${previous.superseded_by}; supersede that one instead.`,
    );
  }
  const twin = await activeTwin(ctx.db, prepared.fields.projectKey, prepared.hash);
  if (twin !== undefined && twin.id !== previous.id) {
    throw new MemoryError(
      'CONFLICT',
      `The replacement text is already stored as memory ${twin.id}; forget ${previousId} instead.`,
    );
  }
  // The old row leaves the active-content index before the insert: a replacement may repeat its text.
  const id = ctx.ids.next();
  // `superseded_by IS NULL` makes a concurrent supersede of the same memory lose cleanly (0 rows).
  const updated = await ctx.db.query(
    'UPDATE memories SET superseded_by = $1, updated_at = $2 WHERE seq = $3 AND superseded_by IS NULL',
    [id, ctx.at, previous.seq],
  );
  if (updated.rowCount === 0) {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${previousId} was superseded meanwhile; supersede the newer one.`,
    );
  }
  ctx.audit.add(ctx.at, 'superseded', previous.id, { supersededBy: id });
  const current = await insertNew(ctx, prepared, previous.id, id);
  return { previous: await reread(ctx.db, previous.id), current };
}

export async function updateIn(
  ctx: PgWriteContext,
  id: MemoryId,
  patch: MemoryPatch,
): Promise<Memory> {
  const row = await selectRowById(ctx.db, id);
  if (row === undefined) throw notFound(id);
  const changed = Object.keys(patch).filter(
    (key) => key !== 'actor' && patch[key as keyof MemoryPatch] !== undefined,
  );
  if (changed.length === 0) return toMemory(row);
  const fields = validateNewMemory({
    content: patch.content ?? row.content,
    projectKey: row.project_key,
    kind: patch.kind ?? (row.kind as Memory['kind']),
    visibility: patch.visibility ?? (row.visibility as Memory['visibility']),
    tags: patch.tags ?? row.tags,
    pinned: patch.pinned ?? row.pinned,
    heatBase: Number(row.heat_base),
  });
  const hash = contentHash(fields.content);
  const contentChanged = fields.content !== row.content;
  if (row.superseded_by === null && hash !== row.content_hash) {
    const twin = await activeTwin(ctx.db, row.project_key, hash);
    if (twin !== undefined) {
      throw new MemoryError('CONFLICT', `That text is already stored as memory ${twin.id}.`);
    }
  }
  const seq = Number(row.seq);
  if (contentChanged) await deleteAllVectors(ctx.db, seq);
  const lexical = lexicalColumns(fields.content, fields.tags, row.context);
  ctx.lexical.add(fieldsOf(row), -1);
  ctx.lexical.add(fieldsOf({ ...row, content: fields.content, tags: fields.tags }), 1);
  await ctx.db.query(
    `UPDATE memories SET content = $1, content_hash = $2, kind = $3, visibility = $4, tags = $5,
     pinned = $6, updated_at = $7, embedding_model = $8, lexical_body = $9, team_visible = $10
     WHERE seq = $11`,
    [
      fields.content,
      hash,
      fields.kind,
      fields.visibility,
      fields.tags,
      fields.pinned,
      ctx.at,
      contentChanged ? null : row.embedding_model,
      lexical.body,
      patch.teamVisible ?? row.team_visible,
      seq,
    ],
  );
  // Neighbours quote this memory's content in their context.
  if (contentChanged) await refreshAround(ctx.db, ctx.lexical, row, { self: false });
  ctx.audit.add(ctx.at, 'update', id, {
    fields: changed.sort(),
    contentHash: hash,
    ...(patch.actor === undefined ? {} : { actor: patch.actor }),
  });
  return reread(ctx.db, id);
}

export async function forgetIn(
  ctx: PgWriteContext,
  id: MemoryId,
  options: ForgetOptions = {},
): Promise<boolean> {
  const row = await selectRowById(ctx.db, id);
  if (row === undefined) return false;
  // The vector rows go with the memory (ON DELETE CASCADE). Links from other memories are left as they
  // are: forgetting a correction must not resurrect the memory it superseded.
  await ctx.db.query('DELETE FROM memories WHERE seq = $1', [row.seq]);
  ctx.lexical.add(fieldsOf(row), -1);
  // Forgetting removes the text from the neighbours' context too.
  await refreshAround(ctx.db, ctx.lexical, row, { self: false });
  ctx.audit.add(ctx.at, 'forget', id, {
    contentHash: row.content_hash,
    projectKey: row.project_key,
    ...(options.actor === undefined ? {} : { actor: options.actor }),
  });
  return true;
}

export async function setVectorIn(
  ctx: PgWriteContext,
  id: MemoryId,
  vector: Parameters<typeof putVector>[4],
): Promise<void> {
  const row = await selectRowById(ctx.db, id);
  if (row === undefined) throw notFound(id);
  await putVector(ctx.db, ctx.vectors, Number(row.seq), row.embedding_model, vector);
  ctx.audit.add(ctx.at, 'set-vector', id, { model: vector.model, dims: vector.values.length });
}

export async function importIn(
  ctx: PgWriteContext,
  record: ExportedMemory,
): Promise<ImportOutcome> {
  if ((await selectRowById(ctx.db, record.id)) !== undefined) return 'skipped';
  const { vector, anchors, ...memory } = record;
  if (memory.supersededBy === null) {
    const twin = await activeTwin(ctx.db, memory.projectKey, memory.contentHash);
    if (twin !== undefined) {
      throw new MemoryError(
        'CONFLICT',
        `Cannot import memory ${record.id}: project ${record.projectKey} already holds the same text under another id.`,
      );
    }
  }
  // An export is restored as it was, context included: the identity of export → import.
  const seq = await insertMemoryRow(ctx.db, { ...memory, embeddingModel: null });
  ctx.lexical.add(fieldsOf(memory), 1);
  if (vector !== null) {
    await putVector(ctx.db, ctx.vectors, seq, null, {
      model: vector.model,
      values: Float32Array.from(vector.values),
    });
  }
  if (anchors !== null && anchors !== undefined) {
    await insertAnchorSet(ctx.db, record.id, anchors, anchors.resolvedAt);
  }
  ctx.audit.add(ctx.at, 'import', record.id, { contentHash: record.contentHash });
  return 'imported';
}

/** Sets the review state with an audit entry; the same state again changes and records nothing. */
export async function setQuarantineIn(
  ctx: PgWriteContext,
  id: MemoryId,
  state: Memory['quarantine'],
  actor: string,
): Promise<Memory> {
  const row = await selectRowById(ctx.db, id);
  if (row === undefined) throw notFound(id);
  if (row.quarantine === state) return toMemory(row);
  await ctx.db.query('UPDATE memories SET quarantine = $1 WHERE seq = $2', [state, row.seq]);
  // A rejected memory neither gives nor gets context (core/text/capture-context.ts).
  if ((state === 'rejected') !== (row.quarantine === 'rejected')) {
    await refreshAround(ctx.db, ctx.lexical, row);
  }
  ctx.audit.add(ctx.at, 'quarantine', id, { actor: actor.trim(), from: row.quarantine, to: state });
  return reread(ctx.db, id);
}

/** One 'cluster' audit entry per member; NOT_FOUND (and nothing recorded) when one is missing. */
export async function recordClusterIn(
  ctx: PgWriteContext,
  ids: readonly MemoryId[],
  detail: Record<string, unknown>,
): Promise<void> {
  for (const id of ids) {
    if ((await selectRowById(ctx.db, id)) === undefined) throw notFound(id);
  }
  for (const id of ids) ctx.audit.add(ctx.at, 'cluster', id, detail);
}

export async function recordMergeIn(
  ctx: PgWriteContext,
  id: MemoryId,
  detail: Record<string, unknown>,
): Promise<Memory> {
  if ((await selectRowById(ctx.db, id)) === undefined) throw notFound(id);
  await recordAccessIn(ctx, [id]);
  ctx.audit.add(ctx.at, 'merge', id, detail);
  return reread(ctx.db, id);
}
