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

/** Every released migration, oldest first. Append only. */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: V1 }];

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
