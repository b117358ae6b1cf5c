/**
 * The write operations of the SQLite store. Each function runs inside the caller's `BEGIN IMMEDIATE`
 * transaction and touches the row, the FTS index (through triggers), the vector table and the audit log
 * together, so a rollback at any point leaves no trace in any of them.
 */
import { MemoryError } from '../../core/errors.js';
import {
  isMemoryId,
  type Memory,
  type MemoryId,
  type MemoryVector,
  validateNewMemory,
} from '../../core/memory.js';
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
import { importAnchors, insertAnchorSet } from './sqlite-anchors.js';
import { appendAudit } from './sqlite-audit.js';
import { isConstraintError } from './sqlite-errors.js';
import { indexNewRow, indexRow, refreshAround, unindexRow } from './sqlite-lexical.js';
import type { SqliteLike } from './sqlite-like.js';
import { insertMemoryRow, type MemoryRow, selectRowById, toMemory } from './sqlite-rows.js';
import { deleteAllVectors, putVector } from './sqlite-vectors.js';

export interface WriteContext {
  db: SqliteLike;
  ids: IdSource;
  /** ISO-8601 time of this write. */
  at: string;
  /** Stamped on new memories; undefined leaves their author unknown. */
  author?: Author | undefined;
}

/**
 * Records one genuine use of each id (unknown ids are ignored): one read and one bounded UPDATE, with
 * heat computed by the shared pure rule in core/ranking/heat.ts so every backend heats alike.
 */
export function recordAccessIn(ctx: WriteContext, ids: readonly MemoryId[]): void {
  const batch = JSON.stringify(ids.slice(0, ACCESS_BATCH));
  const rows = ctx.db
    .prepare(
      `SELECT id, origin, heat_base AS heatBase, created_at AS createdAt, updated_at AS updatedAt,
       last_accessed_at AS lastAccessedAt FROM memories WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .all(batch) as (HeatSubject & { id: string; origin: string })[];
  if (rows.length === 0) return;
  const now = Date.parse(ctx.at);
  const heats = rows.map((row) => ({
    id: row.id,
    heat: nextHeatOnUse(row, now, earnsHeat(row.origin)),
  }));
  ctx.db
    .prepare(
      `UPDATE memories SET access_count = access_count + 1, last_accessed_at = ?,
       heat_base = u.value ->> '$.heat'
       FROM json_each(?) AS u WHERE memories.id = u.value ->> '$.id'`,
    )
    .run(ctx.at, JSON.stringify(heats));
}

export function reread(db: SqliteLike, id: MemoryId): Memory {
  const row = selectRowById(db, id);
  if (row === undefined) throw new Error(`memory ${id} vanished inside its own transaction`);
  return toMemory(row);
}

function activeTwin(db: SqliteLike, projectKey: string, hash: string): MemoryRow | undefined {
  return db
    .prepare(
      'SELECT * FROM memories WHERE project_key = ? AND content_hash = ? AND superseded_by IS NULL',
    )
    .get(projectKey, hash) as MemoryRow | undefined;
}

function insertNew(
  ctx: WriteContext,
  prepared: PreparedMemory,
  supersedes: MemoryId | null,
  id: MemoryId = ctx.ids.next(),
): Memory {
  if (!isMemoryId(id)) throw new Error(`IdSource produced "${id}", which is not a ULID`);
  const memory = newMemoryRow(prepared, id, ctx.at, supersedes, ctx.author);
  const seq = insertMemoryRow(ctx.db, memory);
  indexNewRow(ctx.db, seq);
  if (prepared.vector !== undefined) putVector(ctx.db, seq, null, prepared.vector);
  if (prepared.anchors !== undefined) insertAnchorSet(ctx.db, id, prepared.anchors, ctx.at);
  appendAudit(
    ctx.db,
    ctx.at,
    supersedes === null ? 'remember' : 'supersede',
    id,
    newMemoryAudit(memory, prepared),
  );
  return reread(ctx.db, id);
}

export function rememberIn(ctx: WriteContext, prepared: PreparedMemory): RememberOutcome {
  const twin = activeTwin(ctx.db, prepared.fields.projectKey, prepared.hash);
  if (twin !== undefined) {
    recordAccessIn(ctx, [twin.id]);
    appendAudit(ctx.db, ctx.at, 'dedupe', twin.id, { contentHash: prepared.hash });
    return { memory: reread(ctx.db, twin.id), created: false };
  }
  return { memory: insertNew(ctx, prepared, null), created: true };
}

export function supersedeIn(
  ctx: WriteContext,
  previousId: MemoryId,
  prepared: PreparedMemory,
): { previous: Memory; current: Memory } {
  const previous = selectRowById(ctx.db, previousId);
  if (previous === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${previousId}; run \`mnemo list\` to see ids.`);
  }
  if (previous.superseded_by !== null) {
    throw new MemoryError(
      'CONFLICT',
      `Memory ${previousId} is already superseded by ${previous.superseded_by}; supersede that one instead.`,
    );
  }
  const twin = activeTwin(ctx.db, prepared.fields.projectKey, prepared.hash);
  if (twin !== undefined && twin.seq !== previous.seq) {
    throw new MemoryError(
      'CONFLICT',
      `The replacement text is already stored as memory ${twin.id}; forget ${previousId} instead.`,
    );
  }
  // The new id is drawn first so the old row leaves the active-content index before the insert: a
  // replacement may legitimately repeat the text it supersedes.
  const id = ctx.ids.next();
  ctx.db
    .prepare('UPDATE memories SET superseded_by = ?, updated_at = ? WHERE seq = ?')
    .run(id, ctx.at, previous.seq);
  appendAudit(ctx.db, ctx.at, 'superseded', previous.id, { supersededBy: id });
  const current = insertNew(ctx, prepared, previous.id, id);
  return { previous: reread(ctx.db, previous.id), current };
}

export function updateIn(ctx: WriteContext, id: MemoryId, patch: MemoryPatch): Memory {
  const row = selectRowById(ctx.db, id);
  if (row === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
  }
  const changed = Object.keys(patch).filter(
    (key) => key !== 'actor' && patch[key as keyof MemoryPatch] !== undefined,
  );
  if (changed.length === 0) return toMemory(row);
  const fields = validateNewMemory({
    content: patch.content ?? row.content,
    projectKey: row.project_key,
    kind: patch.kind ?? (row.kind as Memory['kind']),
    visibility: patch.visibility ?? (row.visibility as Memory['visibility']),
    tags: patch.tags ?? (JSON.parse(row.tags) as string[]),
    pinned: patch.pinned ?? row.pinned === 1,
    heatBase: row.heat_base,
  });
  const hash = contentHash(fields.content);
  const contentChanged = fields.content !== row.content;
  if (row.superseded_by === null && hash !== row.content_hash) {
    const twin = activeTwin(ctx.db, row.project_key, hash);
    if (twin !== undefined) {
      throw new MemoryError('CONFLICT', `That text is already stored as memory ${twin.id}.`);
    }
  }
  if (contentChanged) deleteAllVectors(ctx.db, row.seq);
  const tags = JSON.stringify(fields.tags);
  const reindex = contentChanged || tags !== row.tags;
  if (reindex) unindexRow(ctx.db, row);
  ctx.db
    .prepare(
      `UPDATE memories SET content = ?, content_hash = ?, kind = ?, visibility = ?, tags = ?,
       pinned = ?, updated_at = ?, embedding_model = ?, team_visible = ? WHERE seq = ?`,
    )
    .run(
      fields.content,
      hash,
      fields.kind,
      fields.visibility,
      tags,
      fields.pinned ? 1 : 0,
      ctx.at,
      contentChanged ? null : row.embedding_model,
      (patch.teamVisible ?? row.team_visible === 1) ? 1 : 0,
      row.seq,
    );
  if (reindex) indexRow(ctx.db, { ...row, content: fields.content, tags });
  // Neighbours quote this memory's content in their context.
  if (contentChanged) refreshAround(ctx.db, row, { self: false });
  appendAudit(ctx.db, ctx.at, 'update', id, {
    fields: changed.sort(),
    contentHash: hash,
    ...(patch.actor === undefined ? {} : { actor: patch.actor }),
  });
  return reread(ctx.db, id);
}

export function setVectorIn(ctx: WriteContext, id: MemoryId, vector: MemoryVector): void {
  const row = selectRowById(ctx.db, id);
  if (row === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
  }
  putVector(ctx.db, row.seq, row.embedding_model, vector);
  appendAudit(ctx.db, ctx.at, 'set-vector', id, {
    model: vector.model,
    dims: vector.values.length,
  });
}

export function forgetIn(ctx: WriteContext, id: MemoryId, options: ForgetOptions = {}): boolean {
  const row = selectRowById(ctx.db, id);
  if (row === undefined) return false;
  deleteAllVectors(ctx.db, row.seq);
  // Links from other memories are left as they are: forgetting a correction must not resurrect the
  // memory it superseded.
  unindexRow(ctx.db, row);
  ctx.db.prepare('DELETE FROM memories WHERE seq = ?').run(row.seq);
  // Forgetting removes the text from the neighbours' context too.
  refreshAround(ctx.db, row, { self: false });
  appendAudit(ctx.db, ctx.at, 'forget', id, {
    contentHash: row.content_hash,
    projectKey: row.project_key,
    ...(options.actor === undefined ? {} : { actor: options.actor }),
  });
  return true;
}

export function importIn(ctx: WriteContext, record: ExportedMemory): ImportOutcome {
  if (selectRowById(ctx.db, record.id) !== undefined) return 'skipped';
  const { vector, anchors, ...memory } = record;
  let seq: number;
  try {
    seq = insertMemoryRow(ctx.db, { ...memory, embeddingModel: null });
    // An export is restored as it was, context included: the identity of export → import.
    indexRow(ctx.db, {
      seq,
      content: memory.content,
      tags: JSON.stringify(memory.tags),
      context: memory.context,
    });
  } catch (error) {
    if (!isConstraintError(error)) throw error;
    throw new MemoryError(
      'CONFLICT',
      `Cannot import memory ${record.id}: project ${record.projectKey} already holds the same text under another id.`,
      { cause: error },
    );
  }
  if (vector !== null) {
    putVector(ctx.db, seq, null, { model: vector.model, values: Float32Array.from(vector.values) });
  }
  if (anchors !== null && anchors !== undefined) importAnchors(ctx.db, record.id, anchors);
  appendAudit(ctx.db, ctx.at, 'import', record.id, { contentHash: record.contentHash });
  return 'imported';
}
