/**
 * The store port: the one interface through which mnemo reads and writes memories. Every backend
 * (SQLite by default, PostgreSQL for teams) implements it and passes the same contract suite
 * (`store/contract/store.contract.ts`). Code outside `store/<backend>/` sees only this file; what a
 * backend can do is told by `capabilities`, never by its name.
 *
 * Scoring is not the store's job: each search leg returns raw candidates with raw scores, and fusion,
 * recency and diversity live in pure code.
 */
import type { AnchorCheck, AnchorSet, AnchorSetInput } from '../core/anchors/anchor.js';
import type {
  Memory,
  MemoryId,
  MemoryKind,
  MemoryVector,
  NewMemory,
  QuarantineState,
  Visibility,
} from '../core/memory.js';
import type { Bm25fParams } from '../core/ranking/bm25f.js';

export interface StoreCapabilities {
  /** Nearest-neighbour search over stored vectors is available. */
  vectorSearch: boolean;
  /**
   * True when `searchVector` is served by an index over the whole scope (sqlite-vec, pgvector HNSW).
   * False when the backend scores vectors itself over a candidate set: callers then pass the lexical
   * candidates as `SearchOptions.candidates`, which it scores beside the newest in-scope rows once the
   * scope is too large to scan.
   */
  vectorIndex: boolean;
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
  /**
   * The reader, for team stores: a read in scope sees team-visible memories, memories without an
   * author, and this user's own private ones. Omitted: the user the store was opened as; null or a
   * store opened without an author: no author restriction.
   */
  author?: string | null;
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
  /** Only memories in one of these review states. Omitted: every state except `rejected`. */
  quarantine?: readonly QuarantineState[];
  /** Only pinned (`true`) or only unpinned (`false`) memories. Omitted: both. */
  pinned?: boolean;
  /**
   * The reader of a read across every project (no `scope`; the web viewer's "all projects"), for team
   * stores: only team-visible memories, unauthored ones and this user's own private ones. A scoped read
   * names its reader in `scope.author`, which wins. Omitted: no author restriction.
   */
  reader?: string;
  /** Only memories whose `originTool` is one of these (exact). */
  originTools?: readonly string[];
  /** Only memories written in one of these sessions. */
  sessionIds?: readonly string[];
  /** Only memories read from one of these source URLs (exact, in `sourceUrlOf` form). */
  sourceUrls?: readonly string[];
  /**
   * Only memories whose source host is one of these domains or a subdomain of one (`example.com` matches
   * `docs.example.com`), lower-case host names as `normaliseDomain` gives them.
   */
  sourceDomains?: readonly string[];
}

export interface SearchOptions extends MemoryFilter {
  limit: number;
  /**
   * Ids a vector search should score when it cannot scan the whole scope (see
   * `StoreCapabilities.vectorIndex`); a hint only: a backend with a vector index ignores it, and every
   * hit is still within the filter.
   */
  candidates?: readonly MemoryId[];
}

export interface ListOptions extends MemoryFilter {
  limit: number;
  offset?: number;
}

/**
 * Options of a lexical search. Scoring is core's BM25F (core/ranking/bm25f.ts) over the terms of core's
 * analyser, so every backend ranks alike; `bm25f` overrides recall's parameters (benchmarks, sweeps).
 */
export interface LexicalSearchOptions extends SearchOptions {
  bm25f?: Bm25fParams;
  /** Candidates the backend's own index hands to BM25F; defaults to `lexicalPool(limit)` (core/ranking/bm25f.ts). */
  pool?: number;
  /**
   * `native`: the backend's own ranking with the same field weights and no re-scoring (SQLite: bm25() with
   * column weights, k1 1.2 and b 0.75 fixed). For the benchmark's comparison only.
   */
  scoring?: 'bm25f' | 'native';
}

/** Occurrences of analysed terms in memories' own text, and the total of such terms. */
export interface TermCounts {
  total: number;
  counts: Map<string, number>;
}

/** A lexical candidate. `score` is its BM25F score (core/ranking/bm25f.ts), higher is better. */
export interface LexicalHit {
  id: MemoryId;
  score: number;
  /**
   * The word index's hits only (`searchLexical`): the idf-weighted share of the query's terms in the
   * memory's own text, context not counted (core/ranking/bm25f.ts `bodyCoverage`).
   */
  coverage?: number;
}

/** A vector candidate. `distance` is cosine distance in [0, 2], lower is nearer. */
export interface VectorHit {
  id: MemoryId;
  distance: number;
}

export interface RememberOptions {
  /** Stored in the same transaction as the row. Must match `embeddingModel` semantics: one model id, one dimension. */
  vector?: MemoryVector;
  /**
   * The memory's code anchors, stored in the same transaction as a new row (`how: 'write'`). Ignored when
   * the content resolves to an existing memory, which keeps its own. Omitted: the memory is `pending`
   * (no anchor set) until a backfill resolves it.
   */
  anchors?: AnchorSetInput;
  /**
   * ISO-8601 time the captured event happened, when the writer knows it and it is older than the write
   * (an import replays transcripts): a new memory's `createdAt` and `updatedAt` are set to it, so recency
   * and date filters tell the truth. A time after the write is ignored (never dated in the future). The
   * audit entry keeps the real write time. Ignored when the content resolves to an existing memory.
   */
  capturedAt?: string;
}

/**
 * Provenance a later read of the same source can fill in on a memory written without it (`mnemo import
 * claude-code --mend`): each field is applied only where it adds what was missing — a source URL or tool
 * name only where none is stored, a creation time only when it is earlier than the stored one. Content,
 * origin and review state are never touched.
 */
export interface ProvenanceMend {
  sourceUrl?: string | null;
  originTool?: string | null;
  createdAt?: string;
}

/** What a provenance mend did: the memory as it now is, and the names of the fields it changed. */
export interface MendOutcome {
  memory: Memory;
  changed: ('sourceUrl' | 'originTool' | 'createdAt')[];
}

/**
 * A replacement anchor set for one memory. `backfill` fills a pending memory (marked by the set's `how`,
 * not audited: nothing about the memory changes but what is known about its files); `reverify` replaces
 * the set with an audit entry carrying `detail` (who vouched, what changed).
 */
export interface AnchorSetWrite {
  memoryId: MemoryId;
  set: AnchorSetInput;
  action: 'backfill' | 'reverify';
  detail?: Record<string, unknown>;
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
  /** Share with (true) or withdraw from (false) the other authors of the store. */
  teamVisible?: boolean;
  /** Who made the change (`web-ui:<user>`): recorded in the audit entry, not a field of the memory. */
  actor?: string;
}

/** Options of a deletion. */
export interface ForgetOptions {
  /** Who deleted it (`web-ui:<user>`), recorded in the audit entry. */
  actor?: string;
}

/** One memory as exported: every column plus its vector and anchors. Import of an export is the identity. */
export interface ExportedMemory extends Memory {
  vector: { model: string; dims: number; values: number[] } | null;
  /** The anchor set without its check cache; null when the memory has none yet (pending). */
  anchors: Omit<AnchorSet, 'memoryId' | 'checks'> | null;
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

/** Taint of one Claude Code session: set when untrusted content entered it, cleared by the user's next prompt. */
export interface SessionTaint {
  sessionId: string;
  tainted: boolean;
  /** When the current taint window opened (ISO), or null when untainted. */
  since: string | null;
  /** The origin class and tool that tainted it. */
  origin: string | null;
  toolName: string | null;
}

/**
 * A pending `remember` seen by the hooks before the MCP server handles it: the only link between an MCP
 * call (which carries no session id) and its Claude Code session. Keyed by the content hash of the text.
 */
export interface RememberClaim {
  sessionId: string;
  contentHash: string;
  toolUseId: string | null;
  at: string;
}

/** Daily telemetry counters (captures stored, skipped by reason, merged, spooled...). */
export interface CounterRow {
  day: string;
  name: string;
  value: number;
}

/** The events that push memory into a session without being asked (threat model R9). */
export type InjectionEvent = 'session-start' | 'prompt-recall';

/** A candidate an injection left out, and every reason (`WithheldReason` of core/injection/injectable.ts). */
export interface WithheldEntry {
  id: MemoryId;
  reasons: string[];
}

/** One proactive injection, as the injecting hook reports it. */
export interface NewInjection {
  /** The Claude Code session the memories were injected into. */
  sessionId: string;
  event: InjectionEvent;
  /** SessionStart's `source` (`startup`, `resume`, `clear`, `compact`); null for prompt recall. */
  source: string | null;
  /** The session's canonical project key, or null when none resolved (global memories only). */
  projectKey: string | null;
  /** The injected memories in the order they were rendered; empty only when `withheld` is not. */
  memoryIds: readonly MemoryId[];
  /**
   * The ids of `memoryIds` rendered as a one-line index entry (id, kind, age, first words) rather than in
   * full. The session has seen that the memory exists, not what it says, so a later prompt may still
   * bring it in full. Omitted or empty: every id was rendered in full.
   */
  indexIds?: readonly MemoryId[];
  /** Estimated tokens of the emitted text (`estimateTokens` of core/budget.ts). */
  tokens: number;
  /**
   * Candidates the gate kept out of this injection, with their reasons, so nothing is withheld silently
   * (e.g. a memory whose every cited file was deleted). Omitted or empty: none recorded.
   */
  withheld?: readonly WithheldEntry[];
}

/** A row of the injection ledger. */
export interface InjectionRecord extends NewInjection {
  /** Increasing with every recorded injection. */
  seq: number;
  /** ISO-8601 time the injection was recorded. */
  at: string;
  memoryIds: MemoryId[];
  indexIds: MemoryId[];
  withheld: WithheldEntry[];
  /**
   * The author the injecting process wrote as (its `MNEMO_AUTHOR` or login name): whose session it
   * was. Null for a row recorded before the ledger kept authors, or by a store opened without one.
   */
  author: string | null;
}

export interface InjectionQuery {
  /** Only this session's injections. */
  sessionId?: string;
  /** Only injections recorded at or after this ISO-8601 time. */
  since?: string;
  limit: number;
}

/** What `countMemoryGroups` can group by: a column of the memory, as its `Memory` field name. */
export const MEMORY_GROUP_FIELDS = [
  'origin',
  'originTool',
  'sessionId',
  'sourceUrl',
  'sourceHost',
  'projectKey',
  'kind',
] as const;
export type MemoryGroupField = (typeof MEMORY_GROUP_FIELDS)[number];

export interface MemoryGroupQuery {
  by: MemoryGroupField;
  /** Also split each group by UTC day of `createdAt` (for charts over time). */
  perDay?: boolean;
  /** Most rows returned: the largest groups first. */
  limit: number;
}

/** One group: its key (null for memories without a value), the day when split per day, its size. */
export interface MemoryGroupCount {
  key: string | null;
  /** YYYY-MM-DD, present when the query asked `perDay`. */
  day?: string;
  count: number;
}

/** The inputs of read-time heat for one memory (`core/ranking/heat.ts`), without its text. */
export interface HeatInput {
  id: MemoryId;
  heatBase: number;
  createdAt: string;
  updatedAt: string;
  lastAccessedAt: string | null;
}

export interface HeatPage {
  /** Only ids after this one (keyset paging); omitted from the start. */
  afterId?: MemoryId;
  limit: number;
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

/** What `mnemo doctor` and `mnemo stats` say about the store: for people, never for code decisions. */
export interface StoreDescription {
  /** The backend's name, for display only: code reads `capabilities`, never this. */
  backend: 'sqlite' | 'postgres';
  /** The file, or the server and database without credentials. */
  location: string;
  /** Facts worth telling, e.g. which vector index is in use, or an extension the role could not create. */
  notes: string[];
}

export interface MemoryStore {
  readonly capabilities: StoreCapabilities;
  readonly description: StoreDescription;
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

  /**
   * Changes a memory in place. New content drops its anchor set (the memory is `pending` again: its
   * anchors described the old text). Throws NOT_FOUND, CONFLICT if new content duplicates another memory.
   */
  updateMemory(id: MemoryId, patch: MemoryPatch): Promise<Memory>;

  /**
   * Fills missing provenance on one memory (see {@link ProvenanceMend}), audited as `mend` with the fields
   * changed. Returns the memory and the names of the fields changed (empty: nothing was missing, and no
   * audit entry is written). Throws NOT_FOUND for an unknown id, INVALID_INPUT for a malformed value.
   */
  mendProvenance(id: MemoryId, mend: ProvenanceMend): Promise<MendOutcome>;

  /** Deletes a memory with its index entries, vector and anchors. Returns false when it did not exist. */
  forget(id: MemoryId, options?: ForgetOptions): Promise<boolean>;

  /** Records one genuine use of each memory: access count, last access, heat. One statement, bounded. */
  recordAccess(ids: readonly MemoryId[]): Promise<void>;

  /** Stores or replaces the vector of a memory. Throws NOT_FOUND. */
  setVector(id: MemoryId, vector: MemoryVector): Promise<void>;

  /**
   * Stores or replaces a vector of `vector.model` beside the memory's sentence vector: a memory holds one
   * vector per model. `embeddingModel` is unchanged. Such vectors are derived from the text and the store
   * (the word-vector leg's, retrieval/word-vectors.ts), so they are not exported. Throws NOT_FOUND.
   */
  setExtraVector(id: MemoryId, vector: MemoryVector): Promise<void>;

  /** The stored vectors of `model` for those of `ids` that have one (fusion scores every candidate). */
  getVectors(ids: readonly MemoryId[], model: string): Promise<Map<MemoryId, Float32Array>>;

  /**
   * Deletes every vector of `model` and its vector spaces (a derived model whose state changed, or a
   * sentence model whose vectors were built by an earlier rule: store/vector-rules.ts); memories whose
   * sentence vector it was are listed by `listUnembedded` again. Returns how many.
   */
  deleteVectorModel(model: string): Promise<number>;

  /**
   * Occurrences of analysed terms (core/text/analyze.ts) in memories' own text (not their context), and
   * the total number of such terms: word frequencies estimated from the store itself.
   */
  termCounts(terms: readonly string[]): Promise<TermCounts>;

  /** The saved state of a store-derived embedding model (JSON object), or undefined. */
  getModelState(model: string): Promise<Record<string, unknown> | undefined>;

  /** Saves the state of a store-derived embedding model. */
  setModelState(model: string, state: Record<string, unknown>): Promise<void>;

  /**
   * Memories without a vector for `model`, oldest first (for background embedding and `reembed`),
   * restricted to `scope` when given. Superseded and rejected memories are never listed.
   */
  listUnembedded(model: string, limit: number, scope?: Scope): Promise<Memory[]>;

  /**
   * Lexical candidates for any string: quotes, operators, emoji, NUL and huge input never throw, they
   * are treated as plain words. An input with no searchable words returns [].
   */
  searchLexical(query: string, options: LexicalSearchOptions): Promise<LexicalHit[]>;

  /**
   * Substring candidates for code terms (identifiers, snake_case, paths): memories whose content
   * contains any of `terms`, case-insensitively, more and rarer matches first, `score` higher is better.
   * Terms shorter than 3 characters are ignored; [] when none remain. Any string is safe as a term.
   */
  searchTerms(terms: readonly string[], options: SearchOptions): Promise<LexicalHit[]>;

  /** Nearest neighbours by cosine among vectors of the same model. [] when `vectorSearch` is false. */
  searchVector(vector: MemoryVector, options: SearchOptions): Promise<VectorHit[]>;

  /** Memories matching the filter, newest first. */
  listMemories(options: ListOptions): Promise<Memory[]>;

  /** Number of memories matching the filter. */
  countMemories(filter?: MemoryFilter): Promise<number>;

  /**
   * Sizes of the groups of memories matching the filter, by one field (and per day when asked), largest
   * first, ties by key (nulls last) then day. Reads no content. Throws INVALID_INPUT for an unknown field.
   */
  countMemoryGroups(filter: MemoryFilter, query: MemoryGroupQuery): Promise<MemoryGroupCount[]>;

  /**
   * Heat inputs of the memories matching the filter whose stored heat is above 0 (a memory at 0 stays
   * at 0), in id order, one keyset page at a time. Reads no content.
   */
  listHeat(filter: MemoryFilter, page: HeatPage): Promise<HeatInput[]>;

  stats(): Promise<StoreStats>;

  /** The audit trail of one memory, oldest first. */
  auditTrail(id: MemoryId): Promise<AuditEntry[]>;

  /** Every memory, superseded included, in id order, with vectors. */
  exportMemories(): AsyncIterable<ExportedMemory>;

  /** Inserts an exported memory verbatim (id, timestamps, links). `skipped` when the id already exists. */
  importMemory(record: ExportedMemory): Promise<ImportOutcome>;

  /**
   * Sets the review state of a memory (approve or reject a quarantined one), with an audit entry naming
   * `actor`. Only human channels call this. Throws NOT_FOUND.
   */
  setQuarantine(id: MemoryId, state: QuarantineState, actor: string): Promise<Memory>;

  /**
   * Records that the same content arrived again and was merged into `id` (the gate's `merge` outcome):
   * one access, one audit entry with `detail`. Throws NOT_FOUND.
   */
  recordMerge(id: MemoryId, detail: Record<string, unknown>): Promise<Memory>;

  /**
   * Records that `ids` form one quarantined fragment cluster (threat model W8): one 'cluster' audit entry
   * per memory with `detail` (cluster id, members, reason), in one transaction. Changes no column: the
   * members are pending by origin and stay so. Only the write service calls this. Throws NOT_FOUND when a
   * memory does not exist (and records nothing), INVALID_INPUT for an empty list or a non-object detail.
   */
  recordCluster(ids: readonly MemoryId[], detail: Record<string, unknown>): Promise<void>;

  /** Opens (or keeps open) the session's taint window. Idempotent; keeps the earliest `since`. */
  markSessionTainted(sessionId: string, origin: string, toolName: string | null): Promise<void>;

  /** Closes the taint window: called when the user submits a prompt. */
  clearSessionTaint(sessionId: string): Promise<void>;

  /** Taint state of a session; an unknown session is returned as untainted with `since: null`. */
  getSessionTaint(sessionId: string): Promise<SessionTaint>;

  /** Stores a claim linking pending MCP `remember` content to its session. */
  recordRememberClaim(claim: Omit<RememberClaim, 'at'>): Promise<void>;

  /**
   * Consumes and returns the newest claim for `contentHash` not older than `maxAgeMs`, or undefined.
   * A consumed claim cannot link a second write.
   */
  takeRememberClaim(contentHash: string, maxAgeMs: number): Promise<RememberClaim | undefined>;

  /** Number of memories written by `sessionId` with `origin` since `sinceIso` (flood control). */
  countSessionWrites(sessionId: string, origin: string, sinceIso: string): Promise<number>;

  /** Adds `by` (default 1) to today's counter `name`. */
  bumpCounter(name: string, by?: number): Promise<void>;

  /** Counter rows from `sinceDay` (YYYY-MM-DD) on, oldest first. */
  readCounters(sinceDay: string): Promise<CounterRow[]>;

  /**
   * Appends one row to the injection ledger and returns it. Touches no memory: an injection is not a
   * use, so access counts, last access and heat stay as they are (only explicit recall heats). Throws
   * INVALID_INPUT for an empty session id, an unknown event, neither injected nor withheld ids, a
   * malformed id, a bad token count. The row records the author the store was opened as (null
   * without one).
   */
  recordInjection(entry: NewInjection): Promise<InjectionRecord>;

  /**
   * Ledger rows matching the query, newest first, read as the author the store was opened as (a
   * scoped read, like the memory reads; store/ledger-scope.ts): that author's own rows, and rows of no
   * recorded author only while no other author has written to the store. Ids of memories that are
   * now private to another author are left out of the rows returned. A store opened without an author
   * reads every row. Throws INVALID_INPUT for a bad `since`.
   */
  listInjections(query: InjectionQuery): Promise<InjectionRecord[]>;

  /**
   * Every memory id ever injected in full into `sessionId`, each once, first injected first; [] if none.
   * Only rows of the store's author or of no recorded author count (a session is its author's).
   */
  injectedIds(sessionId: string): Promise<MemoryId[]>;

  /**
   * The memory ids `sessionId` was shown only as index entries, never in full, each once, first shown
   * first; [] if none. Scoped like `injectedIds`.
   */
  indexedIds(sessionId: string): Promise<MemoryId[]>;

  /** Audit entries with `seq > afterSeq`, oldest first, at most `limit` (copying a store's history). */
  readAudit(afterSeq: number, limit: number): Promise<AuditEntry[]>;

  /**
   * Appends audit entries copied from another store, named `source`, to this store's own chain: each
   * keeps its time, action, memory and detail, and gains `detail.copiedFrom = { source, seq, hash }` so
   * the original chain stays checkable. Entries of `source` at or below the highest seq already copied
   * are skipped, so a copy can be resumed. Returns how many were appended. Throws INVALID_INPUT for an
   * empty source.
   */
  importAudit(source: string, entries: readonly AuditEntry[]): Promise<number>;

  /**
   * Ledger rows with `seq > afterSeq`, oldest first, at most `limit`, every author's, whole (copying a
   * store's history, like `exportMemories`; never shown to a person).
   */
  readInjections(afterSeq: number, limit: number): Promise<InjectionRecord[]>;

  /**
   * Appends ledger rows copied from another store, with their times, withheld candidates and authors;
   * a row already present (same time, session, event and ids) is skipped. Returns how many were
   * appended. Validates each row like `recordInjection`.
   */
  importInjections(records: readonly InjectionRecord[]): Promise<number>;

  /**
   * The anchor sets of the memories that have one, with the last check of each file anchor. A memory
   * missing from the map is `pending`: written before anchors existed, or without a project directory.
   */
  getAnchorSets(ids: readonly MemoryId[]): Promise<Map<MemoryId, AnchorSet>>;

  /**
   * Stores anchor sets in one transaction; a replaced set's cached checks go with it (the new ones are
   * seeded from `set.checks`). A `backfill` only fills a memory that has no set (one written meanwhile
   * wins and the write is skipped); a `reverify` replaces the set and appends an audit entry. Returns
   * the sets as stored. Throws NOT_FOUND for an unknown memory (then nothing is written) and
   * INVALID_INPUT for a malformed set.
   */
  saveAnchorSets(writes: readonly AnchorSetWrite[]): Promise<AnchorSet[]>;

  /**
   * Caches check verdicts (a lazily filled cache, not history: no audit). A check of an anchor that no
   * longer exists (the set was replaced or the memory forgotten meanwhile) is ignored.
   */
  recordAnchorChecks(checks: readonly AnchorCheck[]): Promise<void>;

  /**
   * Self-check for `mnemo doctor`: page integrity, the lexical indexes against the table, vectors
   * against live rows, the audit hash chain. One line per problem; `[]` when healthy. Reads only.
   */
  checkIntegrity(): Promise<string[]>;

  close(): Promise<void>;
}
