/**
 * Mapping between `memories` rows and the `Memory` model. The key order of `toMemory` is the key order
 * of exports, which is what makes export → import → export byte-identical.
 */
import { MemoryError } from '../../core/errors.js';
import type {
  GateReason,
  Memory,
  MemoryKind,
  QuarantineState,
  Visibility,
} from '../../core/memory.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import type { SqliteLike, SqliteValue } from './sqlite-like.js';

export interface MemoryRow {
  seq: number;
  id: string;
  content: string;
  project_key: string;
  visibility: string;
  kind: string;
  tags: string;
  origin: string;
  origin_tool: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string | null;
  access_count: number;
  heat_base: number;
  pinned: number;
  supersedes: string | null;
  superseded_by: string | null;
  content_hash: string;
  embedding_model: string | null;
  trust_band: string;
  tainted: number;
  quarantine: string;
  redactions: number;
  gate_reason: string;
  author_user: string | null;
  author_host: string | null;
  team_visible: number;
  source_url: string | null;
  source_host: string | null;
  context: string;
}

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    content: row.content,
    projectKey: row.project_key,
    visibility: row.visibility as Visibility,
    kind: row.kind as MemoryKind,
    tags: JSON.parse(row.tags) as string[],
    origin: row.origin,
    originTool: row.origin_tool,
    sessionId: row.session_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastAccessedAt: row.last_accessed_at,
    accessCount: row.access_count,
    heatBase: row.heat_base,
    pinned: row.pinned === 1,
    supersedes: row.supersedes,
    supersededBy: row.superseded_by,
    contentHash: row.content_hash,
    embeddingModel: row.embedding_model,
    trustBand: row.trust_band,
    tainted: row.tainted === 1,
    quarantine: row.quarantine as QuarantineState,
    redactions: row.redactions,
    gateReason: row.gate_reason as GateReason,
    authorUser: row.author_user,
    authorHost: row.author_host,
    teamVisible: row.team_visible === 1,
    sourceUrl: row.source_url,
    context: row.context,
  };
}

const COLUMNS = [
  'id',
  'content',
  'project_key',
  'visibility',
  'kind',
  'tags',
  'origin',
  'origin_tool',
  'session_id',
  'created_at',
  'updated_at',
  'last_accessed_at',
  'access_count',
  'heat_base',
  'pinned',
  'supersedes',
  'superseded_by',
  'content_hash',
  'embedding_model',
  'trust_band',
  'tainted',
  'quarantine',
  'redactions',
  'gate_reason',
  'author_user',
  'author_host',
  'team_visible',
  'source_url',
  'source_host',
  'context',
] as const;

const INSERT_SQL = `INSERT INTO memories (${COLUMNS.join(', ')})
  VALUES (${COLUMNS.map(() => '?').join(', ')}) RETURNING seq`;

/** Inserts every column of `memory` verbatim and returns the new row's seq. */
export function insertMemoryRow(db: SqliteLike, memory: Memory): number {
  const values: SqliteValue[] = [
    memory.id,
    memory.content,
    memory.projectKey,
    memory.visibility,
    memory.kind,
    JSON.stringify(memory.tags),
    memory.origin,
    memory.originTool,
    memory.sessionId,
    memory.createdAt,
    memory.updatedAt,
    memory.lastAccessedAt,
    memory.accessCount,
    memory.heatBase,
    memory.pinned ? 1 : 0,
    memory.supersedes,
    memory.supersededBy,
    memory.contentHash,
    memory.embeddingModel,
    memory.trustBand,
    memory.tainted ? 1 : 0,
    memory.quarantine,
    memory.redactions,
    memory.gateReason,
    memory.authorUser,
    memory.authorHost,
    memory.teamVisible ? 1 : 0,
    memory.sourceUrl,
    sourceHostOf(memory.sourceUrl),
    memory.context,
  ];
  const row = db.prepare(INSERT_SQL).get(...values) as { seq: number };
  return row.seq;
}

export function selectRowById(db: SqliteLike, id: string): MemoryRow | undefined {
  return db.prepare('SELECT * FROM memories WHERE id = ?').get(id) as MemoryRow | undefined;
}

/** The row of `id`; throws NOT_FOUND naming the command that lists ids. */
export function existingRow(db: SqliteLike, id: string): MemoryRow {
  const row = selectRowById(db, id);
  if (row === undefined) {
    throw new MemoryError('NOT_FOUND', `No memory ${id}; run \`mnemo list\` to see ids.`);
  }
  return row;
}
