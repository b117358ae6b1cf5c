import { fetchedSourceUrl } from '../../core/capture/capture-content.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import type { SqliteLike } from './sqlite-like.js';
import { rekeyProjects } from './sqlite-rekey.js';

/**
 * The SQLite schema as an ordered list of migrations. A released migration's `sql` is frozen: its
 * sha256 is recorded when applied and checked on every open, so edit history by adding a migration,
 * never by changing one. Views are not part of any migration: `SELECT *` views freeze their column list,
 * so the migrator drops them before each step and recreates them after it.
 */

export interface Migration {
  version: number;
  name: string;
  /** Frozen DDL/DML, run in one transaction together with its bookkeeping. */
  sql: string;
  /**
   * A backfill that needs more than SQL (the filesystem, through `context`), run after `sql` in the same
   * transaction. Not covered by the checksum: it must stay idempotent on the rows `sql` leaves.
   */
  backfill?: (db: SqliteLike, context: MigrationContext) => void;
  /**
   * sha256 of `sql` (hex), written out so that opening a store compares the recorded checksums without
   * hashing every step again (and loading `node:crypto`) in each hook; a test checks it against `sql`.
   * Without it the migrator hashes `sql` itself.
   */
  checksum?: string;
}

/** What a backfill may use beyond the database. */
export interface MigrationContext {
  /** ISO time of the migration, for audit entries. */
  at: string;
  /** The portable key of a stored path key, or undefined to leave it (see `rekeyProjects`). */
  rekeyProject?: ((key: string) => string | undefined) | undefined;
}

export interface ViewDefinition {
  name: string;
  /** First schema version whose tables the view can be built on. */
  sinceVersion: number;
  sql: string;
}

// v1. Design notes that later migrations rely on:
// - `seq INTEGER PRIMARY KEY` is the rowid alias shared by memories_fts and the vec0 tables; without an
//   INTEGER PRIMARY KEY, VACUUM may renumber rowids and silently desync both indexes.
// - Dedupe is unique per project among *active* memories only, so a fact that was superseded can be
//   asserted again as a new memory instead of resolving to its superseded twin.
// - Tokenizer: porter over unicode61 so "migrations" finds "migration" in English notes; remove_diacritics
//   2 folds accents (also in the query, since FTS5 tokenizes it the same way). Identifier lookups that
//   need exact substrings belong to a separate leg, not to this index.
// - Supersede links are plain ids without foreign keys: export/import inserts one memory at a time and a
//   link may point at a memory imported later.
const V1 = `
CREATE TABLE memories (
  seq              INTEGER PRIMARY KEY,
  id               TEXT    NOT NULL UNIQUE,
  content          TEXT    NOT NULL,
  project_key      TEXT    NOT NULL,
  visibility       TEXT    NOT NULL CHECK (visibility IN ('project', 'global')),
  kind             TEXT    NOT NULL,
  tags             TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
  origin           TEXT    NOT NULL,
  origin_tool      TEXT,
  session_id       TEXT,
  created_at       TEXT    NOT NULL,
  updated_at       TEXT    NOT NULL,
  last_accessed_at TEXT,
  access_count     INTEGER NOT NULL DEFAULT 0,
  heat_base        REAL    NOT NULL DEFAULT 1,
  pinned           INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  supersedes       TEXT,
  superseded_by    TEXT,
  content_hash     TEXT    NOT NULL,
  embedding_model  TEXT
);
CREATE UNIQUE INDEX memories_active_content ON memories (project_key, content_hash)
  WHERE superseded_by IS NULL;
CREATE INDEX memories_project_created ON memories (project_key, created_at);
CREATE INDEX memories_visibility_created ON memories (visibility, created_at);
CREATE INDEX memories_embedding_model ON memories (embedding_model);

CREATE VIRTUAL TABLE memories_fts USING fts5(
  content, tags,
  content = 'memories', content_rowid = 'seq',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts (rowid, content, tags) VALUES (new.seq, new.content, new.tags);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, content, tags)
    VALUES ('delete', old.seq, old.content, old.tags);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, content, tags)
    VALUES ('delete', old.seq, old.content, old.tags);
  INSERT INTO memories_fts (rowid, content, tags) VALUES (new.seq, new.content, new.tags);
END;

CREATE TABLE vector_spaces (
  id         INTEGER PRIMARY KEY,
  model      TEXT    NOT NULL,
  dims       INTEGER NOT NULL CHECK (dims > 0),
  table_name TEXT    NOT NULL UNIQUE,
  UNIQUE (model, dims)
);

CREATE TABLE audit_log (
  seq       INTEGER PRIMARY KEY,
  at        TEXT    NOT NULL,
  action    TEXT    NOT NULL,
  memory_id TEXT,
  detail    TEXT    NOT NULL CHECK (json_valid(detail)),
  prev_hash TEXT    NOT NULL,
  hash      TEXT    NOT NULL
);
CREATE INDEX audit_log_memory ON audit_log (memory_id, seq);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
`;

// v2: the write path's provenance and review columns, session taint, remember claims, counters.
// - trust_band is derived from origin at write time and stored for audit. Existing rows get the band of
//   their stored origin by the CASE below, which must equal `trustBand` in core/origin/origin-class.ts
//   (sqlite-schema.test.ts checks every class); anything outside the vocabulary is 'untrusted'.
// - quarantine of existing rows: 'pending' where `requiresReview(origin)` holds (network, agent_tainted,
//   unknown and anything outside the vocabulary), 'none' otherwise. Pending rows stay searchable on
//   request; they only lose proactive injection until a person approves them (fail closed).
// - gate_reason 'legacy': these rows were stored before the write gate existed. tainted 0, redactions 0:
//   nothing was known about either.
// - Column DEFAULTs only serve ADD COLUMN and raw inserts; the store always writes every column, and
//   the defaults are the fail-closed values.
// - session_taint rows are deleted when the taint clears: an absent row means untainted.
// - remember_claims are short-lived (pruned after a day); counters are keyed by UTC day.
const V2 = `
ALTER TABLE memories ADD COLUMN trust_band TEXT NOT NULL DEFAULT 'untrusted'
  CHECK (trust_band IN ('high', 'medium', 'low', 'untrusted'));
ALTER TABLE memories ADD COLUMN tainted INTEGER NOT NULL DEFAULT 0 CHECK (tainted IN (0, 1));
ALTER TABLE memories ADD COLUMN quarantine TEXT NOT NULL DEFAULT 'pending'
  CHECK (quarantine IN ('none', 'pending', 'approved', 'rejected'));
ALTER TABLE memories ADD COLUMN redactions INTEGER NOT NULL DEFAULT 0 CHECK (redactions >= 0);
ALTER TABLE memories ADD COLUMN gate_reason TEXT NOT NULL DEFAULT 'legacy'
  CHECK (gate_reason IN ('novel', 'bypass_cue', 'forced', 'imported', 'legacy'));
UPDATE memories SET
  trust_band = CASE origin
    WHEN 'user' THEN 'high'
    WHEN 'agent' THEN 'medium'
    WHEN 'local_edit' THEN 'medium'
    WHEN 'local_read' THEN 'low'
    WHEN 'local_exec' THEN 'low'
    ELSE 'untrusted'
  END,
  quarantine = CASE
    WHEN origin IN ('user', 'agent', 'local_edit', 'local_read', 'local_exec') THEN 'none'
    ELSE 'pending'
  END,
  tainted = 0,
  redactions = 0,
  gate_reason = 'legacy';
CREATE INDEX memories_session_origin_created ON memories (session_id, origin, created_at);

CREATE TABLE session_taint (
  session_id TEXT    PRIMARY KEY,
  tainted    INTEGER NOT NULL CHECK (tainted IN (0, 1)),
  since      TEXT,
  origin     TEXT,
  tool_name  TEXT,
  updated_at TEXT    NOT NULL
);

CREATE TABLE remember_claims (
  id           INTEGER PRIMARY KEY,
  session_id   TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  tool_use_id  TEXT,
  at           TEXT NOT NULL
);
CREATE INDEX remember_claims_hash ON remember_claims (content_hash, at);
CREATE INDEX remember_claims_at ON remember_claims (at);

CREATE TABLE counters (
  day   TEXT    NOT NULL,
  name  TEXT    NOT NULL,
  value INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, name)
) WITHOUT ROWID;
`;

// v3: the identifier leg's substring index (recall of code terms). The porter index of v1 splits
// `NODE_ENV`, `sqlite-store.ts` and `getUserById` into stemmed words, so an exact code term cannot be
// asked for; a trigram index over the same content (case-folded, external content like memories_fts,
// kept in sync by triggers) answers "contains this substring" for any term of 3+ characters.
// The 'rebuild' backfills every existing row, superseded ones included, like memories_fts.
const V3 = `
CREATE VIRTUAL TABLE memories_terms USING fts5(
  content,
  content = 'memories', content_rowid = 'seq',
  tokenize = 'trigram case_sensitive 0'
);
CREATE TRIGGER memories_terms_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memories_terms (rowid, content) VALUES (new.seq, new.content);
END;
CREATE TRIGGER memories_terms_delete AFTER DELETE ON memories BEGIN
  INSERT INTO memories_terms (memories_terms, rowid, content) VALUES ('delete', old.seq, old.content);
END;
CREATE TRIGGER memories_terms_update AFTER UPDATE OF content ON memories BEGIN
  INSERT INTO memories_terms (memories_terms, rowid, content) VALUES ('delete', old.seq, old.content);
  INSERT INTO memories_terms (rowid, content) VALUES (new.seq, new.content);
END;
INSERT INTO memories_terms (memories_terms) VALUES ('rebuild');
`;

// v4: the injection ledger (threat model R9). One row per proactive injection (session start, prompt
// recall): which memories went into which session, how many tokens that cost, and when. It is what
// keeps resume and compact from re-injecting a session's memories, and what `mnemo ledger` reports.
// - memory_ids is a JSON array of ids in render order. Plain ids without foreign keys: the ledger is
//   history, and forgetting a memory must not rewrite what was once injected.
// - event is not CHECKed: the adapter validates it against the port's vocabulary, so a new injecting
//   event needs no table rebuild.
// - Injecting never touches `memories`: access counts and heat belong to explicit recall only.
const V4 = `
CREATE TABLE injections (
  seq         INTEGER PRIMARY KEY,
  at          TEXT    NOT NULL,
  session_id  TEXT    NOT NULL CHECK (length(session_id) > 0),
  event       TEXT    NOT NULL CHECK (length(event) > 0),
  source      TEXT,
  project_key TEXT,
  memory_ids  TEXT    NOT NULL CHECK (json_valid(memory_ids) AND json_type(memory_ids) = 'array'),
  tokens      INTEGER NOT NULL CHECK (tokens >= 0)
);
CREATE INDEX injections_session ON injections (session_id, seq);
CREATE INDEX injections_at ON injections (at);
`;

// v5: code anchors (core/anchors/anchor.ts) and withheld candidates in the injection ledger.
// - anchor_sets holds one row per memory whose citations were resolved, with how: at write time, by a
//   backfill, or by a re-verification. Rows that exist before this migration get none: they are
//   `pending`, which is exactly what is known about them. The backfill is code, not SQL (it reads the
//   project's files and git history, which only a process in that project can see), runs lazily and
//   bounded, and writes a memory's set only once it resolved it (how = 'backfill'); nothing is marked
//   done that did not run.
// - anchors: one row per cited path. kind 'file' carries the fingerprint (blob id of the bytes, size, the
//   commit, where it was read from, the symbols found in it); kind 'mention' a path that was no readable
//   file then, with why. The last check of a file anchor (a cache: stat signature, HEAD, verdict JSON)
//   lives on its row, so replacing a set drops its cache with it.
// - Forgetting a memory deletes its anchors; new content drops them (the memory is pending again), both
//   by trigger so no write path can forget it. The trigger fires on any content UPDATE: the adapter only
//   issues one when the text changes.
// - injections.withheld: the candidates an injection left out, with reasons, as a JSON array of
//   { id, reasons }. Existing rows get '[]': nothing was recorded about them.
const V5 = `
CREATE TABLE anchor_sets (
  memory_id   TEXT NOT NULL PRIMARY KEY,
  how         TEXT NOT NULL CHECK (how IN ('write', 'backfill', 'reverify')),
  resolved_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE anchors (
  memory_id  TEXT    NOT NULL,
  position   INTEGER NOT NULL CHECK (position >= 0),
  path       TEXT    NOT NULL CHECK (length(path) > 0),
  kind       TEXT    NOT NULL CHECK (kind IN ('file', 'mention')),
  cited_as   TEXT,
  blob_id    TEXT,
  size       INTEGER CHECK (size IS NULL OR size >= 0),
  commit_id  TEXT,
  source     TEXT    CHECK (source IS NULL OR source IN ('worktree', 'commit')),
  symbols    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(symbols)),
  why        TEXT,
  checked_at TEXT,
  check_sig  TEXT,
  check_head TEXT,
  verdict    TEXT    CHECK (verdict IS NULL OR json_valid(verdict)),
  PRIMARY KEY (memory_id, path),
  CHECK ((kind = 'file') = (blob_id IS NOT NULL AND source IS NOT NULL)),
  CHECK ((kind = 'mention') = (why IS NOT NULL))
) WITHOUT ROWID;
CREATE TRIGGER memories_anchors_delete AFTER DELETE ON memories BEGIN
  DELETE FROM anchors WHERE memory_id = old.id;
  DELETE FROM anchor_sets WHERE memory_id = old.id;
END;
CREATE TRIGGER memories_anchors_content AFTER UPDATE OF content ON memories
  WHEN new.content IS NOT old.content BEGIN
  DELETE FROM anchors WHERE memory_id = old.id;
  DELETE FROM anchor_sets WHERE memory_id = old.id;
END;
ALTER TABLE injections ADD COLUMN withheld TEXT NOT NULL DEFAULT '[]'
  CHECK (json_valid(withheld) AND json_type(withheld) = 'array');
`;

// v6: teams. Authorship and team visibility per row, and project keys that travel between machines.
// - author_user/author_host: NULL on existing rows ("written before authorship"): nothing recorded who
//   wrote them, and NULL rows keep the reach they had (every reader of the store).
// - team_visible: the default of core/privileges `defaultTeamVisible`, written out here (project rows
//   of origins that need no review); sqlite-schema.test.ts checks the CASE against the function.
// - Project keys: a stored path key whose directory is, today, a repository with a network remote
//   becomes that remote's key (project/project-key.ts) in the backfill, so recall in the same checkout
//   keeps finding its memories after the key's meaning changed; see rekeyProjects.
const V6 = `
ALTER TABLE memories ADD COLUMN author_user TEXT;
ALTER TABLE memories ADD COLUMN author_host TEXT;
ALTER TABLE memories ADD COLUMN team_visible INTEGER NOT NULL DEFAULT 0 CHECK (team_visible IN (0, 1));
UPDATE memories SET team_visible = CASE
  WHEN visibility = 'project' AND origin IN ('user', 'agent', 'local_edit', 'local_read', 'local_exec')
  THEN 1 ELSE 0 END;
CREATE INDEX memories_author ON memories (author_user);
`;

// v7: where captured content came from, so a person can review and purge by page, site, tool or session
// (the web viewer's quarantine inbox), and an index for that inbox.
// - source_url is `scheme://host[:port]/path` from the hook envelope's tool input (core/origin/source-url.ts);
//   source_host is its lower-case host name, stored so a site's memories are found without parsing URLs.
// - Backfill (backfillSourceV7): rows captured from a web fetch before v7 carry their address only in their
//   text, on the first line the capture builder wrote from the same tool input ("Fetched <url>:"); it is
//   parsed with the builder's own parser and normalised by the write path's function, so a migrated row
//   holds what a capture made today would. Every other row stays NULL: nothing is known of its source.
// - memories_browse makes every listing and count of a large store an index walk: the active rows
//   (superseded_by IS NULL, every read's default) in listing order (created_at, then seq), carrying the
//   columns counts and groups filter on, so a count or a group by origin or project never reads a row and a
//   page of the newest 50 (or the 50 at offset 50,000) reads 50 rows. Over 100k memories: count 386 -> 17
//   ms, first page 595 -> 3 ms, page at offset 50,000 1472 -> 9 ms (bench:web's store, a loaded machine).
// - memories_warm lists the memories with heat in id order (the dashboard's heat distribution) without
//   visiting the cold majority.
const V7 = `
ALTER TABLE memories ADD COLUMN source_url TEXT;
ALTER TABLE memories ADD COLUMN source_host TEXT;
CREATE INDEX memories_browse ON memories
  (superseded_by, created_at, seq, quarantine, visibility, project_key, origin);
CREATE INDEX memories_warm ON memories (id) WHERE heat_base > 0;
`;

function backfillSourceV7(db: SqliteLike): void {
  const rows = db
    .prepare(
      "SELECT seq, content FROM memories WHERE origin = 'network' AND content LIKE 'Fetched http%'",
    )
    .all() as { seq: number; content: string }[];
  const update = db.prepare('UPDATE memories SET source_url = ?, source_host = ? WHERE seq = ?');
  for (const row of rows) {
    const url = fetchedSourceUrl(row.content);
    if (url !== null) update.run(url, sourceHostOf(url), row.seq);
  }
}

// v8: recall quality (tuned lexical scoring over weighted fields, a second vector per memory).
// - `context` is the text around a memory when it was captured: the content of its neighbours in the
//   same session (core/text/capture-context.ts says which and how much). It is a separate lexical field
//   weighted below the memory's own text. Existing rows are backfilled by the store on open, in the same
//   pass that builds the new index (the rule lives in code, not in frozen SQL).
// - memories_lex replaces memories_fts: a contentless FTS5 index of the terms core's analyser produces
//   (core/text/analyze.ts: Porter2 stemming, accents folded), in two columns, `body` (content and tags)
//   and `context`. The unicode61 tokenizer only splits those terms on spaces, so every backend indexes
//   exactly the terms core scores (BM25F, core/ranking/bm25f.ts). The store fills it in code because
//   SQL cannot run the analyser; `lexical_state` records which analyser built it and the collection
//   totals BM25F needs (documents, terms per field). analyzer '' means "not built yet": the first open
//   after this migration builds it, in one transaction.
// - memories_lex_vocab exposes document frequencies per term (fts5vocab 'row'), memories_lex_columns
//   occurrences per term and field ('col'): the word frequencies of the static word-vector leg.
// - Vectors: one per (memory, model). `embedding_model` still names the memory's sentence-model vector;
//   other models' vectors (the word-vector leg's) live beside it in their own vec0 spaces, found by
//   rowid, and are derived data: recomputed by the engine, not exported.
// - model_state keeps what a store-derived embedding model needs to embed a query like the stored rows
//   (the static word-vector leg's common component, retrieval/word-vectors), keyed by model id.
const V8 = `
ALTER TABLE memories ADD COLUMN context TEXT NOT NULL DEFAULT '';
DROP TRIGGER memories_fts_insert;
DROP TRIGGER memories_fts_delete;
DROP TRIGGER memories_fts_update;
DROP TABLE memories_fts;
CREATE VIRTUAL TABLE memories_lex USING fts5(
  body, context,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE memories_lex_vocab USING fts5vocab(memories_lex, 'row');
CREATE VIRTUAL TABLE memories_lex_columns USING fts5vocab(memories_lex, 'col');
CREATE TABLE lexical_state (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  analyzer      TEXT    NOT NULL,
  docs          INTEGER NOT NULL CHECK (docs >= 0),
  body_terms    INTEGER NOT NULL CHECK (body_terms >= 0),
  context_terms INTEGER NOT NULL CHECK (context_terms >= 0)
);
INSERT INTO lexical_state (id, analyzer, docs, body_terms, context_terms) VALUES (1, '', 0, 0, 0);
CREATE INDEX memories_session_seq ON memories (session_id, seq) WHERE session_id IS NOT NULL;
CREATE TABLE model_state (
  model      TEXT PRIMARY KEY,
  state      TEXT NOT NULL CHECK (json_valid(state)),
  updated_at TEXT NOT NULL
);
`;

// v9: partial indexes for what every session start lists (hooks/session-start.ts): the pinned memories
// and a project's newest checkpoint. There are few of either, but without an index the listing walked
// the scope's every row newest-first to find them: at 100k memories 43 ms for the pinned (none) and
// 34 ms for the checkpoint, 0.03 ms and 0.005 ms with these (listSql names them: sqlite-search.ts).
// No column changes, nothing to backfill: SQLite fills an index from the existing rows as it creates it.
const V9 = `
CREATE INDEX memories_pinned ON memories (created_at, seq) WHERE pinned = 1 AND superseded_by IS NULL;
CREATE INDEX memories_checkpoints ON memories (project_key, created_at, seq)
  WHERE kind = 'checkpoint' AND superseded_by IS NULL;
`;

// v10: the injection ledger records whose session it was (threat model R4 in a team store).
// - author_user: the author the injecting process writes as (`MNEMO_AUTHOR`, else the login name); NULL
//   when the store was opened without one. Existing rows stay NULL: nothing recorded who injected them.
//   Reads show a reader its own rows; a NULL row only while no other author has written to the store
//   (store/ledger-scope.ts says why), so a single person's history stays whole and a team store leaks none.
// - injections_author serves those reads and the "is there another author" probe (two range seeks).
const V10 = `
ALTER TABLE injections ADD COLUMN author_user TEXT;
CREATE INDEX injections_author ON injections (author_user, seq);
`;

// v11: which injected memories a session was shown only as an index entry (prompt recall's second tier:
// id, kind, age and first words). Such a session has been pointed at the memory, not shown what it
// says, so a later prompt may still bring it in full (store/shown-ids.ts).
// - index_ids: a JSON array, a subset of the row's memory_ids. Existing rows get '[]': every memory
//   they name was rendered in full before index entries existed, which is what they recorded.
const V11 = `
ALTER TABLE injections ADD COLUMN index_ids TEXT NOT NULL DEFAULT '[]'
  CHECK (json_valid(index_ids) AND json_type(index_ids) = 'array');
`;

/** Every released migration, oldest first. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: V1,
    checksum: '7caa55e7a0fbc07e88f5afbc6d129c261f10e761aad9296da4bae6fb0cce0a22',
  },
  {
    version: 2,
    name: 'write-path',
    sql: V2,
    checksum: '3d3d6b68a3c17b89ef8befa7fcafa5c0f3bcc56df83b1504be07c8d1fa902c40',
  },
  {
    version: 3,
    name: 'identifier-terms',
    sql: V3,
    checksum: '0fc1dce9176cfd55244339202010307a5e18a9b92dae5b4e7e9ebcb1a100be36',
  },
  {
    version: 4,
    name: 'injection-ledger',
    sql: V4,
    checksum: '8cc436400d174ce9d87272a9615ef359900a0c8faa7a12df2cd2b7612cdcf25d',
  },
  {
    version: 5,
    name: 'code-anchors',
    sql: V5,
    checksum: '6beade8ecd93502b8c877d055243fc6b3cfdea230d7c2221643e75caa78cd7f5',
  },
  {
    version: 6,
    name: 'teams',
    sql: V6,
    backfill: rekeyProjects,
    checksum: '3e61900130bf8795e603da9a4bb89154f0ed86ba72dddb7eb37994452fb34fd7',
  },
  {
    version: 7,
    name: 'source-address',
    sql: V7,
    backfill: backfillSourceV7,
    checksum: 'd5b8dcf4feae0200fc50a21406951ad2894c20e9d013fbae0ff358c0abc611e0',
  },
  {
    version: 8,
    name: 'recall-quality',
    sql: V8,
    checksum: 'd1a8965a0083621e24b7e77ef6ac79c04d08fc63bdee46399085eff0a36d18b7',
  },
  {
    version: 9,
    name: 'session-start-indexes',
    sql: V9,
    checksum: 'f3112955243ad53adccd07987ae4dc0e2285a3cd4d6f3e99e9b9ba7dc38c47d3',
  },
  {
    version: 10,
    name: 'ledger-author',
    sql: V10,
    checksum: 'e1584adb842256ca5e4fbbc4437f1feb17c2cd40d0ab2a36bbc7c56efe078c4c',
  },
  {
    version: 11,
    name: 'ledger-index-entries',
    sql: V11,
    checksum: '7f934861e1589f3607cbb3842b7de6461b85a2e64eb9493f117965236f68cdf2',
  },
];

/** Current view definitions, recreated after every migration step whose version is >= sinceVersion. */
export const VIEWS: readonly ViewDefinition[] = [
  {
    name: 'active_memories',
    sinceVersion: 1,
    sql: 'CREATE VIEW active_memories AS SELECT * FROM memories WHERE superseded_by IS NULL',
  },
];

/** The schema version this build writes. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
