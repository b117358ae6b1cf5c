/**
 * The PostgreSQL schema as an ordered list of migrations, in the store's own schema (search_path). The
 * same discipline as SQLite's: a released migration's `sql` is frozen (its sha256 is recorded when
 * applied and checked on every open); views are not part of any migration but dropped before each step
 * and recreated after it, since a `SELECT *` view freezes its column list.
 *
 * What depends on an extension (the trigram index, pgvector columns and HNSW indexes) is not in a
 * migration: whether the extension exists is a property of the server, not of the schema version, so
 * `postgres-capabilities.ts` adds those indexes after migrating, whenever the extension is there.
 */
import { fetchedSourceUrl } from '../../core/capture/capture-content.js';
import { sourceHostOf } from '../../core/origin/source-url.js';
import type { PgQueryable } from './pg-like.js';

export interface PgMigration {
  version: number;
  name: string;
  /** Frozen DDL/DML, run in one transaction with its bookkeeping. */
  sql: string;
  /**
   * A backfill that needs the write path's own code rather than SQL, run after `sql` in the same
   * transaction. Like `sql`, frozen once released: change the data with a new migration.
   */
  backfill?: (db: PgQueryable) => Promise<void>;
}

export interface PgViewDefinition {
  name: string;
  sinceVersion: number;
  sql: string;
}

// v1: the schema of SQLite v1–v4 in PostgreSQL types.
// - seq is an identity column: the key the vector tables reference (ON DELETE CASCADE), so forgetting a
//   memory removes its vectors in the same statement.
// - lexical_text holds the words of content and tags, tokenised and accent-folded by the adapter exactly
//   as SQLite's unicode61 tokenizer does (store/query-terms.ts); the generated tsvector over it is what
//   the GIN index serves. mnemo_english is the english snowball stemmer *without* a stop-word list: stop
//   words are dropped from queries by the adapter, so a query made only of stop words ("NOT") still
//   finds them, as on SQLite.
// - The audit log is append-only by trigger (UPDATE, DELETE and TRUNCATE raise).
// - Supersede links are plain ids without foreign keys: import inserts one memory at a time.
const V1 = `
CREATE TEXT SEARCH DICTIONARY mnemo_english_stem (TEMPLATE = pg_catalog.snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION mnemo_english (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION mnemo_english
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
  WITH mnemo_english_stem;

CREATE TABLE memories (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id               text        NOT NULL UNIQUE,
  content          text        NOT NULL,
  project_key      text        NOT NULL,
  visibility       text        NOT NULL CHECK (visibility IN ('project', 'global')),
  kind             text        NOT NULL,
  tags             text[]      NOT NULL DEFAULT '{}',
  origin           text        NOT NULL,
  origin_tool      text,
  session_id       text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  last_accessed_at timestamptz,
  access_count     integer     NOT NULL DEFAULT 0,
  heat_base        double precision NOT NULL DEFAULT 0,
  pinned           boolean     NOT NULL DEFAULT false,
  supersedes       text,
  superseded_by    text,
  content_hash     text        NOT NULL,
  embedding_model  text,
  trust_band       text        NOT NULL DEFAULT 'untrusted'
    CHECK (trust_band IN ('high', 'medium', 'low', 'untrusted')),
  tainted          boolean     NOT NULL DEFAULT false,
  quarantine       text        NOT NULL DEFAULT 'pending'
    CHECK (quarantine IN ('none', 'pending', 'approved', 'rejected')),
  redactions       integer     NOT NULL DEFAULT 0 CHECK (redactions >= 0),
  gate_reason      text        NOT NULL DEFAULT 'legacy'
    CHECK (gate_reason IN ('novel', 'bypass_cue', 'forced', 'imported', 'legacy')),
  lexical_text     text        NOT NULL,
  lexical          tsvector GENERATED ALWAYS AS (to_tsvector('mnemo_english', lexical_text)) STORED
);
CREATE UNIQUE INDEX memories_active_content ON memories (project_key, content_hash)
  WHERE superseded_by IS NULL;
CREATE INDEX memories_project_created ON memories (project_key, created_at);
CREATE INDEX memories_visibility_created ON memories (visibility, created_at);
CREATE INDEX memories_embedding_model ON memories (embedding_model);
CREATE INDEX memories_session_origin_created ON memories (session_id, origin, created_at);
CREATE INDEX memories_lexical ON memories USING gin (lexical);

CREATE TABLE vector_spaces (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  model      text    NOT NULL,
  dims       integer NOT NULL CHECK (dims > 0),
  table_name text    NOT NULL UNIQUE,
  storage    text    NOT NULL CHECK (storage IN ('pgvector', 'bytea')),
  UNIQUE (model, dims)
);

CREATE TABLE audit_log (
  seq       bigint      PRIMARY KEY,
  at        timestamptz NOT NULL,
  action    text        NOT NULL,
  memory_id text,
  detail    text        NOT NULL CHECK (detail::jsonb IS NOT NULL),
  prev_hash text        NOT NULL,
  hash      text        NOT NULL
);
CREATE INDEX audit_log_memory ON audit_log (memory_id, seq);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS
  'BEGIN RAISE EXCEPTION ''audit_log is append-only''; END';
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

CREATE TABLE session_taint (
  session_id text        PRIMARY KEY,
  tainted    boolean     NOT NULL,
  since      timestamptz,
  origin     text,
  tool_name  text,
  updated_at timestamptz NOT NULL
);

CREATE TABLE remember_claims (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id   text        NOT NULL,
  content_hash text        NOT NULL,
  tool_use_id  text,
  at           timestamptz NOT NULL
);
CREATE INDEX remember_claims_hash ON remember_claims (content_hash, at);
CREATE INDEX remember_claims_at ON remember_claims (at);

CREATE TABLE counters (
  day   text   NOT NULL,
  name  text   NOT NULL,
  value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, name)
);

CREATE TABLE injections (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at          timestamptz NOT NULL,
  session_id  text    NOT NULL CHECK (length(session_id) > 0),
  event       text    NOT NULL CHECK (length(event) > 0),
  source      text,
  project_key text,
  memory_ids  text[]  NOT NULL CHECK (cardinality(memory_ids) > 0),
  tokens      integer NOT NULL CHECK (tokens >= 0)
);
CREATE INDEX injections_session ON injections (session_id, seq);
CREATE INDEX injections_at ON injections (at);
`;

// v2: teams (the same change as SQLite v5). Authorship and team visibility per row.
// - author_user/author_host: NULL on existing rows ("written before authorship"); NULL rows keep the
//   reach they had, every reader of the store.
// - team_visible: core/privileges `defaultTeamVisible` written out (project rows of origins that need
//   no review); postgres-schema.test.ts checks the CASE against the function.
// - Project keys are not rewritten here: a server cannot resolve its clients' directories. Path keys a
//   v1 store holds stay reachable from the machine that wrote them until `mnemo migrate-store` or a
//   re-key moves them.
const V2 = `
ALTER TABLE memories ADD COLUMN author_user text;
ALTER TABLE memories ADD COLUMN author_host text;
ALTER TABLE memories ADD COLUMN team_visible boolean NOT NULL DEFAULT false;
UPDATE memories SET team_visible =
  (visibility = 'project' AND origin IN ('user', 'agent', 'local_edit', 'local_read', 'local_exec'));
CREATE INDEX memories_author ON memories (author_user);
`;

// v3: code anchors and withheld candidates in the injection ledger (the SQLite v5 design; see
// sqlite-schema.ts for the reasoning). Times, symbols and verdicts are kept as the text the adapter
// writes, as on SQLite, so an exported set is byte-identical whichever backend held it. A set goes with
// its memory (ON DELETE CASCADE) and with its old content (trigger). An injection may now list no
// injected ids when it withheld some, so v1's non-empty check on memory_ids is dropped.
const V3 = `
CREATE TABLE anchor_sets (
  memory_id   text PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
  how         text NOT NULL CHECK (how IN ('write', 'backfill', 'reverify')),
  resolved_at text NOT NULL
);
CREATE TABLE anchors (
  memory_id  text    NOT NULL REFERENCES anchor_sets (memory_id) ON DELETE CASCADE,
  position   integer NOT NULL CHECK (position >= 0),
  path       text    NOT NULL CHECK (length(path) > 0),
  kind       text    NOT NULL CHECK (kind IN ('file', 'mention')),
  cited_as   text,
  blob_id    text,
  size       bigint  CHECK (size IS NULL OR size >= 0),
  commit_id  text,
  source     text    CHECK (source IS NULL OR source IN ('worktree', 'commit')),
  symbols    text    NOT NULL DEFAULT '[]' CHECK (symbols::jsonb IS NOT NULL),
  why        text,
  checked_at text,
  check_sig  text,
  check_head text,
  verdict    text    CHECK (verdict IS NULL OR verdict::jsonb IS NOT NULL),
  PRIMARY KEY (memory_id, path),
  CHECK ((kind = 'file') = (blob_id IS NOT NULL AND source IS NOT NULL)),
  CHECK ((kind = 'mention') = (why IS NOT NULL))
);
CREATE FUNCTION memories_anchors_content() RETURNS trigger LANGUAGE plpgsql AS
  'BEGIN DELETE FROM anchor_sets WHERE memory_id = old.id; RETURN NULL; END';
CREATE TRIGGER memories_anchors_content AFTER UPDATE OF content ON memories
  FOR EACH ROW WHEN (new.content IS DISTINCT FROM old.content)
  EXECUTE FUNCTION memories_anchors_content();
ALTER TABLE injections ADD COLUMN withheld text NOT NULL DEFAULT '[]'
  CHECK (jsonb_typeof(withheld::jsonb) = 'array');
ALTER TABLE injections DROP CONSTRAINT injections_memory_ids_check;
`;

// v4: where captured content came from (the SQLite v7 design; see sqlite-schema.ts), so the web
// viewer's review inbox can group and purge by page, site, tool or session, and indexes for browsing.
// - source_url is `scheme://host[:port]/path` from the hook envelope's tool input; source_host its
//   lower-case host name. Backfill (backfillSourceV4): a web fetch captured before v4 carries its address
//   only on its first line ("Fetched <url>:"), parsed with the capture builder's own parser, so a
//   migrated row holds what a capture made today would; every other row stays NULL.
// - memories_browse: the active rows (every read's default) in listing order, carrying the columns the
//   viewer's counts and groups filter on (review state, project, origin, reader), so a page newest first
//   is an index walk and a count can be an index-only scan. memories_warm: the rows with heat, for the
//   dashboard's heat distribution, without visiting the cold majority.
const V4 = `
ALTER TABLE memories ADD COLUMN source_url text;
ALTER TABLE memories ADD COLUMN source_host text;
CREATE INDEX memories_browse ON memories (created_at, seq)
  INCLUDE (quarantine, visibility, project_key, origin, team_visible, author_user)
  WHERE superseded_by IS NULL;
CREATE INDEX memories_warm ON memories (id COLLATE "C") WHERE heat_base > 0;
`;

async function backfillSourceV4(db: PgQueryable): Promise<void> {
  const { rows } = await db.query<{ seq: string | number; content: string }>(
    "SELECT seq, content FROM memories WHERE origin = 'network' AND content LIKE 'Fetched http%'",
  );
  const seqs: number[] = [];
  const urls: string[] = [];
  const hosts: (string | null)[] = [];
  for (const row of rows) {
    const url = fetchedSourceUrl(row.content);
    if (url === null) continue;
    seqs.push(Number(row.seq));
    urls.push(url);
    hosts.push(sourceHostOf(url));
  }
  if (seqs.length === 0) return;
  await db.query(
    `UPDATE memories m SET source_url = b.url, source_host = b.host
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS b(seq, url, host) WHERE m.seq = b.seq`,
    [seqs, urls, hosts],
  );
}

// v5: recall quality (the SQLite v8 design; see sqlite-schema.ts and store/lexical-rules.ts).
// - `context`: the text around a memory when it was captured (core/text/capture-context.ts).
// - The tsvector is now built from the terms of core's analyser (Porter2, accents folded), written by
//   the adapter into lexical_body (content and tags) and lexical_context, under the 'simple'
//   configuration so PostgreSQL neither stems nor drops them again, with the body at weight A and the
//   context at weight B: ts_rank with the field weights orders the candidates that core's BM25F
//   re-scores. lexical_text (v1's words) is dropped with the old tsvector.
// - lexical_state and lexical_terms are the term statistics BM25F and the word-vector leg need:
//   documents and terms per field, and per term the documents holding it and its occurrences in
//   bodies. The adapter keeps them with every write; analyzer '' means "not built yet": the first open
//   after this migration derives every context and builds both, in one transaction (the analyser lives
//   in code, not in frozen SQL).
// - Vectors: one per (memory, model), as on SQLite: `embedding_model` names the sentence vector; other
//   models' vectors (the word-vector leg's) live in their own spaces. model_state keeps what a
//   store-derived embedding model needs to embed queries like the stored rows.
const V5 = `
ALTER TABLE memories ADD COLUMN context text NOT NULL DEFAULT '';
ALTER TABLE memories ADD COLUMN lexical_body text NOT NULL DEFAULT '';
ALTER TABLE memories ADD COLUMN lexical_context text NOT NULL DEFAULT '';
DROP INDEX memories_lexical;
ALTER TABLE memories DROP COLUMN lexical;
ALTER TABLE memories DROP COLUMN lexical_text;
ALTER TABLE memories ADD COLUMN lexical tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', lexical_body), 'A') ||
  setweight(to_tsvector('simple', lexical_context), 'B')) STORED;
CREATE INDEX memories_lexical ON memories USING gin (lexical);
CREATE INDEX memories_session_seq ON memories (session_id, project_key, seq)
  WHERE session_id IS NOT NULL;
CREATE TABLE lexical_state (
  id            integer PRIMARY KEY CHECK (id = 1),
  analyzer      text    NOT NULL,
  docs          bigint  NOT NULL CHECK (docs >= 0),
  body_terms    bigint  NOT NULL CHECK (body_terms >= 0),
  context_terms bigint  NOT NULL CHECK (context_terms >= 0)
);
INSERT INTO lexical_state (id, analyzer, docs, body_terms, context_terms) VALUES (1, '', 0, 0, 0);
CREATE TABLE lexical_terms (
  term text   PRIMARY KEY,
  docs bigint NOT NULL,
  body bigint NOT NULL
);
CREATE TABLE model_state (
  model      text        PRIMARY KEY,
  state      text        NOT NULL CHECK (jsonb_typeof(state::jsonb) = 'object'),
  updated_at timestamptz NOT NULL
);
`;

// v6: partial indexes for what every session start lists, the pinned memories and a project's newest
// checkpoint (the SQLite v9 design; see sqlite-schema.ts). Nothing to backfill.
const V6 = `
CREATE INDEX memories_pinned ON memories (created_at, seq) WHERE pinned AND superseded_by IS NULL;
CREATE INDEX memories_checkpoints ON memories (project_key, created_at, seq)
  WHERE kind = 'checkpoint' AND superseded_by IS NULL;
`;

// v7: the injection ledger records whose session it was (the SQLite v10 design; see sqlite-schema.ts).
// author_user is NULL on existing rows (nothing recorded who injected them) and for a store opened
// without an author; injections_author serves the scoped reads.
const V7 = `
ALTER TABLE injections ADD COLUMN author_user text;
CREATE INDEX injections_author ON injections (author_user, seq);
`;

// v8: which injected memories a session was shown only as an index entry (the SQLite v11 design; see
// sqlite-schema.ts). Existing rows get '{}': they rendered every memory they name in full.
const V8 = `
ALTER TABLE injections ADD COLUMN index_ids text[] NOT NULL DEFAULT '{}';
`;

/** Every released migration, oldest first. Append only. */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'initial', sql: V1 },
  { version: 2, name: 'teams', sql: V2 },
  { version: 3, name: 'code-anchors', sql: V3 },
  { version: 4, name: 'source-address', sql: V4, backfill: backfillSourceV4 },
  { version: 5, name: 'recall-quality', sql: V5 },
  { version: 6, name: 'session-start-indexes', sql: V6 },
  { version: 7, name: 'ledger-author', sql: V7 },
  { version: 8, name: 'ledger-index-entries', sql: V8 },
];

/** Current view definitions, recreated after every migration step whose version is >= sinceVersion. */
export const PG_VIEWS: readonly PgViewDefinition[] = [
  {
    name: 'active_memories',
    sinceVersion: 1,
    sql: 'CREATE VIEW active_memories AS SELECT * FROM memories WHERE superseded_by IS NULL',
  },
];

export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS.at(-1)?.version ?? 0;

/** First version with the code-built lexical index (v5). */
export const PG_LEXICAL_INDEX_SINCE = 5;
