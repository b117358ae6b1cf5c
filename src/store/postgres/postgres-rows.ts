/**
 * Mapping between `memories` rows and the `Memory` model, and the one INSERT every write path uses.
 * The key order of `toMemory` is the key order of exports (the same as SQLite's), which is what makes an
 * export byte-identical whichever backend wrote it.
 */
import type {
  GateReason,
  Memory,
  MemoryKind,
  QuarantineState,
  Visibility,
} from '../../core/memory.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import { lexicalFields } from '../lexical-rules.js';
import type { PgQueryable } from './pg-like.js';

export interface PgMemoryRow {
  seq: string | number;
  id: string;
  content: string;
  project_key: string;
  visibility: string;
  kind: string;
  tags: string[];
  origin: string;
  origin_tool: string | null;
  session_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  last_accessed_at: Date | string | null;
  access_count: number;
  heat_base: number;
  pinned: boolean;
  supersedes: string | null;
  superseded_by: string | null;
  content_hash: string;
  embedding_model: string | null;
  trust_band: string;
  tainted: boolean;
  quarantine: string;
  redactions: number;
  gate_reason: string;
  author_user: string | null;
  author_host: string | null;
  team_visible: boolean;
  source_url: string | null;
  context: string;
}

/** Every column `toMemory` reads: the lexical columns stay on the server. */
export const MEMORY_COLUMNS = `seq, id, content, project_key, visibility, kind, tags, origin, origin_tool,
  session_id, created_at, updated_at, last_accessed_at, access_count, heat_base, pinned, supersedes,
  superseded_by, content_hash, embedding_model, trust_band, tainted, quarantine, redactions, gate_reason,
  author_user, author_host, team_visible, source_url, context`;

/** The same list qualified by alias `m`. */
export const M_COLUMNS = MEMORY_COLUMNS.split(',')
  .map((column) => `m.${column.trim()}`)
  .join(', ');

/** An ISO-8601 string from what the driver returns for timestamptz (a Date from both drivers here). */
export function isoOf(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoOf(value);
}

export function toMemory(row: PgMemoryRow): Memory {
  return {
    id: row.id,
    content: row.content,
    projectKey: row.project_key,
    visibility: row.visibility as Visibility,
    kind: row.kind as MemoryKind,
    tags: [...row.tags],
    origin: row.origin,
    originTool: row.origin_tool,
    sessionId: row.session_id,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    lastAccessedAt: isoOrNull(row.last_accessed_at),
    accessCount: Number(row.access_count),
    heatBase: Number(row.heat_base),
    pinned: row.pinned,
    supersedes: row.supersedes,
    supersededBy: row.superseded_by,
    contentHash: row.content_hash,
    embeddingModel: row.embedding_model,
    trustBand: row.trust_band,
    tainted: row.tainted,
    quarantine: row.quarantine as QuarantineState,
    redactions: Number(row.redactions),
    gateReason: row.gate_reason as GateReason,
    authorUser: row.author_user,
    authorHost: row.author_host,
    teamVisible: row.team_visible,
    sourceUrl: row.source_url,
    context: row.context,
  };
}

/** The two indexed columns of a memory: its analysed body and context terms, space-separated. */
export function lexicalColumns(
  content: string,
  tags: readonly string[],
  context: string,
): { body: string; context: string } {
  const fields = lexicalFields(content, tags, context);
  return { body: fields.body.join(' '), context: fields.context.join(' ') };
}

const INSERT_SQL = `INSERT INTO memories (id, content, project_key, visibility, kind, tags, origin,
  origin_tool, session_id, created_at, updated_at, last_accessed_at, access_count, heat_base, pinned,
  supersedes, superseded_by, content_hash, embedding_model, trust_band, tainted, quarantine,
  redactions, gate_reason, author_user, author_host, team_visible, source_url, source_host,
  context, lexical_body, lexical_context)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
  $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32) RETURNING seq`;

/**
 * Inserts every column of `memory` verbatim, its lexical columns derived from it, and returns the new
 * row's seq. The caller accounts for the new document in the term statistics (postgres-lexical.ts).
 */
export async function insertMemoryRow(db: PgQueryable, memory: Memory): Promise<number> {
  const lexical = lexicalColumns(memory.content, memory.tags, memory.context);
  const { rows } = await db.query<{ seq: string | number }>(INSERT_SQL, [
    memory.id,
    memory.content,
    memory.projectKey,
    memory.visibility,
    memory.kind,
    memory.tags,
    memory.origin,
    memory.originTool,
    memory.sessionId,
    memory.createdAt,
    memory.updatedAt,
    memory.lastAccessedAt,
    memory.accessCount,
    memory.heatBase,
    memory.pinned,
    memory.supersedes,
    memory.supersededBy,
    memory.contentHash,
    memory.embeddingModel,
    memory.trustBand,
    memory.tainted,
    memory.quarantine,
    memory.redactions,
    memory.gateReason,
    memory.authorUser,
    memory.authorHost,
    memory.teamVisible,
    memory.sourceUrl,
    sourceHostOf(memory.sourceUrl),
    memory.context,
    lexical.body,
    lexical.context,
  ]);
  return Number(rows[0]?.seq);
}

export async function selectRowById(db: PgQueryable, id: string): Promise<PgMemoryRow | undefined> {
  const { rows } = await db.query<PgMemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = $1`,
    [id],
  );
  return rows[0];
}
