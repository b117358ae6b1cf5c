/**
 * The store port: the one interface through which mnemo reads and writes memories. Every backend
 * (SQLite by default, PostgreSQL for teams) implements it and passes the same contract suite
 * (`store/contract/store.contract.ts`). Code outside `store/<backend>/` sees only this file; what a
 * backend can do is told by `capabilities`, never by its name.
 *
 * Scoring is not the store's job: each search leg returns raw candidates with raw scores, and fusion,
 * recency and diversity live in pure code.
 */
import type {
  Memory,
  MemoryId,
  MemoryKind,
  MemoryVector,
  NewMemory,
  Visibility,
} from '../core/memory.js';

export interface StoreCapabilities {
  /** Nearest-neighbour search over stored vectors is available. */
  vectorSearch: boolean;
  /** The lexical engine behind `searchLexical`. */
  lexical: 'fts5' | 'tsvector';
  /** Several OS processes may write at once without an external lock. */
  concurrentWriters: boolean;
}

/**
 * Which memories a read may see. `projectKey` memories with project visibility, plus global ones when
 * `includeGlobal`. A null project key means "no project resolved": only global memories. An empty
 * string is never a wildcard.
 */
export interface Scope {
  projectKey: string | null;
  includeGlobal: boolean;
}

export interface MemoryFilter {
  /** Omitted: every project (administrative views such as export and stats only). */
  scope?: Scope;
  kinds?: readonly MemoryKind[];
  /** A memory matches when it carries every listed tag. */
  tags?: readonly string[];
  origins?: readonly string[];
  /** ISO-8601 bounds on `createdAt`, inclusive. */
  createdAfter?: string;
  createdBefore?: string;
  /** Superseded memories are excluded unless this is true. */
  includeSuperseded?: boolean;
}

export interface SearchOptions extends MemoryFilter {
  limit: number;
}

export interface ListOptions extends MemoryFilter {
  limit: number;
  offset?: number;
}

/** A lexical candidate. `score` is the engine's relevance, higher is better (SQLite: -bm25). */
export interface LexicalHit {
  id: MemoryId;
  score: number;
}

/** A vector candidate. `distance` is cosine distance in [0, 2], lower is nearer. */
export interface VectorHit {
  id: MemoryId;
  distance: number;
}

export interface RememberOptions {
  /** Stored in the same transaction as the row. Must match `embeddingModel` semantics: one model id, one dimension. */
  vector?: MemoryVector;
}

export interface RememberOutcome {
  memory: Memory;
  /** False when the same content already existed in this project: the existing memory is returned and its access recorded. */
  created: boolean;
}

/** Fields a caller may change in place. Changing `content` re-indexes it and drops its vector. */
export interface MemoryPatch {
  content?: string;
  kind?: MemoryKind;
  tags?: readonly string[];
  pinned?: boolean;
  visibility?: Visibility;
}

/** One memory as exported: every column plus its vector. Import of an export is the identity. */
export interface ExportedMemory extends Memory {
  vector: { model: string; dims: number; values: number[] } | null;
}

export type ImportOutcome = 'imported' | 'skipped';

export interface AuditEntry {
  seq: number;
  at: string;
  action: string;
  memoryId: MemoryId | null;
  detail: Record<string, unknown>;
  /** sha256 hex chaining this entry to the previous one (tamper evidence, not prevention). */
  hash: string;
}

export interface StoreStats {
  schemaVersion: number;
  memories: number;
  superseded: number;
  byKind: Record<string, number>;
  byOrigin: Record<string, number>;
  byProject: Record<string, number>;
  vectors: Record<string, number>;
  /** Bytes on disk, when the backend can tell. */
  sizeBytes: number | null;
}

export interface MemoryStore {
  readonly capabilities: StoreCapabilities;
  /** Schema version of the open store, after migrations. */
  readonly schemaVersion: number;

  /**
   * Stores a new memory: row, lexical index, optional vector and an audit entry in one transaction.
   * Same normalised content as an active memory of the same project returns that memory with
   * `created: false` and records an access instead of duplicating; text that only a superseded memory
   * holds is stored anew (re-asserting a replaced fact must bring it back into recall). Throws
   * INVALID_INPUT for bad content, STORE_BUSY when the store stays locked past the busy timeout.
   */
  remember(input: NewMemory, options?: RememberOptions): Promise<RememberOutcome>;

  /**
   * Writes `replacement` and marks `previousId` as superseded by it, in one transaction. History is
   * kept: the old memory remains readable by id but leaves recall and listings by default.
   * Throws NOT_FOUND for an unknown id, CONFLICT when it is already superseded.
   */
  supersede(
    previousId: MemoryId,
    replacement: NewMemory,
    options?: RememberOptions,
  ): Promise<{ previous: Memory; current: Memory }>;

  /** Returns the memory, superseded or not, or undefined. Does not count as an access. */
  getMemory(id: MemoryId): Promise<Memory | undefined>;

  /** Returns the memories that exist, in the order of `ids`. */
  getMemories(ids: readonly MemoryId[]): Promise<Memory[]>;

  /** Changes a memory in place. Throws NOT_FOUND, CONFLICT if new content duplicates another memory. */
  updateMemory(id: MemoryId, patch: MemoryPatch): Promise<Memory>;

  /** Deletes a memory with its index entries and vector. Returns false when it did not exist. */
  forget(id: MemoryId): Promise<boolean>;

  /** Records one genuine use of each memory: access count, last access, heat. One statement, bounded. */
  recordAccess(ids: readonly MemoryId[]): Promise<void>;

  /** Stores or replaces the vector of a memory. Throws NOT_FOUND. */
  setVector(id: MemoryId, vector: MemoryVector): Promise<void>;

  /** Ids of in-scope memories that have no vector for `model`, oldest first (for background embedding). */
  listUnembedded(model: string, limit: number): Promise<Memory[]>;

  /**
   * Lexical candidates for any string: quotes, operators, emoji, NUL and huge input never throw, they
   * are treated as plain words. An input with no searchable words returns [].
   */
  searchLexical(query: string, options: SearchOptions): Promise<LexicalHit[]>;

  /** Nearest neighbours by cosine among vectors of the same model. [] when `vectorSearch` is false. */
  searchVector(vector: MemoryVector, options: SearchOptions): Promise<VectorHit[]>;

  /** Memories matching the filter, newest first. */
  listMemories(options: ListOptions): Promise<Memory[]>;

  /** Number of memories matching the filter. */
  countMemories(filter?: MemoryFilter): Promise<number>;

  stats(): Promise<StoreStats>;

  /** The audit trail of one memory, oldest first. */
  auditTrail(id: MemoryId): Promise<AuditEntry[]>;

  /** Every memory, superseded included, in id order, with vectors. */
  exportMemories(): AsyncIterable<ExportedMemory>;

  /** Inserts an exported memory verbatim (id, timestamps, links). `skipped` when the id already exists. */
  importMemory(record: ExportedMemory): Promise<ImportOutcome>;

  close(): Promise<void>;
}
