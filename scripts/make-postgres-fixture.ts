// Writes test/fixtures/postgres/schema-v<N>.sql: the DDL of PostgreSQL schema version N exactly as
// released (its migrations' frozen SQL and bookkeeping) followed by the rows a store of that version
// held, as plain INSERTs. A fixture is frozen once its version ships; the upgrade test loads it into a
// fresh schema and opens it with the current code.
//
//   npx tsx scripts/make-postgres-fixture.ts <version> [--force]
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  CONTEXT_AFTER,
  CONTEXT_BEFORE,
  joinContext,
  sharesContext,
} from '../src/core/text/capture-context.js';
import { auditEntryHash, canonicalJson, GENESIS_HASH } from '../src/store/audit-chain.js';
import { contentHash } from '../src/store/content-hash.js';
import { LEXICAL_INDEX_VERSION, lexicalFields } from '../src/store/lexical-rules.js';
import { LexicalTally } from '../src/store/postgres/postgres-lexical.js';
import { pgMigrationChecksum } from '../src/store/postgres/postgres-migrate.js';
import { lexicalColumns } from '../src/store/postgres/postgres-rows.js';
import { PG_MIGRATIONS } from '../src/store/postgres/postgres-schema.js';
import { vectorBytes } from '../src/store/write-rules.js';
import { lit, releasedLexicalText } from './postgres-fixture-sql.js';

const version = Number(process.argv[2]);
const target = fileURLToPath(
  new URL(`../test/fixtures/postgres/schema-v${version}.sql`, import.meta.url),
);
if (![1, 3, 4, 5, 6, 7].includes(version))
  throw new Error('only the v1 and v3–v7 fixtures are described; add the next one’s rows below');
if (existsSync(target) && !process.argv.includes('--force')) {
  console.error(`${target} exists; released fixtures are frozen. Pass --force to rewrite it.`);
  process.exit(1);
}

const alpha = '/home/dev/projects/alpha';
const beta = '/home/dev/projects/beta';
let minute = 0;
const at = (): string =>
  new Date(Date.parse('2025-02-03T09:00:00.000Z') + (minute += 5) * 60_000).toISOString();
let n = 0;
const id = (): string => `01JPG${String((n += 1)).padStart(21, '0')}`;

interface Row {
  id: string;
  content: string;
  project_key: string;
  visibility: string;
  kind: string;
  tags: string[];
  origin: string;
  origin_tool: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
  superseded_by: string | null;
  supersedes: string | null;
  pinned: boolean;
  trust_band: string;
  quarantine: string;
  embedding_model: string | null;
  vector?: number[];
  /** Columns of v2 (teams); written only into fixtures of v2 and later. */
  author_user?: string | null;
  author_host?: string | null;
  team_visible?: boolean;
  /** Columns of v4 (source address); written only into fixtures of v4 and later. */
  source_url?: string | null;
  source_host?: string | null;
}
const rows: Row[] = [];
const audit: {
  at: string;
  action: string;
  memoryId: string | null;
  detail: Record<string, unknown>;
}[] = [];
const base = {
  origin_tool: null,
  session_id: null,
  superseded_by: null,
  supersedes: null,
  pinned: false,
  embedding_model: null,
};
function remember(r: Partial<Row> & Pick<Row, 'content' | 'project_key' | 'kind' | 'origin'>): Row {
  const when = at();
  const row: Row = {
    ...base,
    id: id(),
    visibility: 'project',
    tags: [],
    trust_band: r.origin === 'user' ? 'high' : 'untrusted',
    quarantine: r.origin === 'user' ? 'none' : 'pending',
    created_at: when,
    updated_at: when,
    ...r,
    embedding_model: r.vector === undefined ? null : 'fixture-model',
  };
  rows.push(row);
  audit.push({
    at: when,
    action: r.supersedes ? 'supersede' : 'remember',
    memoryId: row.id,
    detail: { contentHash: contentHash(row.content), projectKey: row.project_key },
  });
  return row;
}

const build = remember({
  content: 'Build with `npm run build`; tests need dist/.',
  project_key: alpha,
  kind: 'fact',
  tags: ['build', 'npm'],
  origin: 'user',
  vector: [1, 0, 0, 0],
});
const oldDeploy = remember({
  content: 'Deploy with make deploy from the repo root.',
  project_key: alpha,
  kind: 'decision',
  tags: ['deploy'],
  origin: 'user',
  vector: [0, 1, 0, 0],
});
const newDeploy = remember({
  content: 'Deploy with just deploy; the Makefile is gone.',
  project_key: alpha,
  kind: 'decision',
  tags: ['deploy', 'just'],
  origin: 'user',
  supersedes: oldDeploy.id,
  vector: [0, 0.9, 0.1, 0],
});
oldDeploy.superseded_by = newDeploy.id;
oldDeploy.updated_at = newDeploy.created_at;
audit.splice(audit.length - 1, 0, {
  at: newDeploy.created_at,
  action: 'superseded',
  memoryId: oldDeploy.id,
  detail: { supersededBy: newDeploy.id },
});
remember({
  content: 'Prefer small pure functions; keep I/O behind ports.',
  project_key: beta,
  visibility: 'global',
  kind: 'preference',
  tags: ['style'],
  origin: 'user',
  pinned: true,
});
remember({
  content: 'Café résumé parsing must ignore accents.',
  project_key: beta,
  kind: 'note',
  tags: ['unicode'],
  origin: 'agent',
  vector: [0, 0, 0, 1],
});
const fetched = remember({
  content: 'The API docs say rate limits reset every hour.',
  project_key: alpha,
  kind: 'capture',
  tags: ['api'],
  origin: 'network',
  origin_tool: 'WebFetch',
  session_id: 'session-fixture-2',
});
rows.at(-2)!.trust_band = 'medium';
rows.at(-2)!.quarantine = 'none';

// v3 (what the v4 source-address backfill reads): a web fetch captured before source addresses were
// stored, whose first line names its page with a query and fragment the backfill must drop; a note the
// user typed that begins the same way (not a capture: left alone); a private memory of an author.
if (version >= 3) {
  remember({
    content:
      'Fetched https://Docs.Example.com:443/quotas?key=abc#reset:\nQuota windows reset at midnight UTC.',
    project_key: alpha,
    kind: 'capture',
    origin: 'network',
    origin_tool: 'WebFetch',
    session_id: 'session-fixture-3',
  });
  remember({
    content: 'Fetched http://example.org/notes:\nTyped by hand, from my own notes.',
    project_key: alpha,
    kind: 'note',
    origin: 'user',
  });
  remember({
    content: 'Draft: the cache may go.',
    project_key: alpha,
    kind: 'note',
    origin: 'user',
    author_user: 'dana',
    author_host: 'dana-laptop',
    team_visible: false,
  });
}

// v4 (what the v5 recall-quality migration reads): the v3-era page as v4's backfill left it, and a
// coding session written by v4 — a failed install, an untrusted page whose address v4's capture path
// stored, the fix and the edit — whose neighbours v5 derives as each other's context, the untrusted page
// giving and taking none.
if (version >= 4) {
  const page = rows.find((row) => row.content.startsWith('Fetched https://Docs.Example.com'))!;
  page.source_url = 'https://docs.example.com/quotas';
  page.source_host = 'docs.example.com';
  minute += 24 * 60;
  const session = 'session-fixture-8';
  const byDana = { author_user: 'dana', author_host: 'dana-laptop' };
  remember({
    content: 'npm install failed: ENOSPC no space left on device',
    project_key: beta,
    kind: 'capture',
    origin: 'local_exec',
    origin_tool: 'Bash',
    session_id: session,
    trust_band: 'low',
    quarantine: 'none',
    ...byDana,
  });
  remember({
    content:
      'Fetched https://forum.example.net/t/disk-full:\nReinstall the operating system to free space.',
    project_key: beta,
    kind: 'capture',
    origin: 'network',
    origin_tool: 'WebFetch',
    session_id: session,
    source_url: 'https://forum.example.net/t/disk-full',
    source_host: 'forum.example.net',
    ...byDana,
    team_visible: false,
  });
  remember({
    content: 'Freed the disk with docker system prune; install passes',
    project_key: beta,
    kind: 'capture',
    origin: 'local_exec',
    origin_tool: 'Bash',
    session_id: session,
    trust_band: 'low',
    quarantine: 'none',
    ...byDana,
  });
  remember({
    content: 'Edited ci.yml: prune docker images before npm install',
    project_key: beta,
    kind: 'capture',
    origin: 'local_edit',
    origin_tool: 'Edit',
    session_id: session,
    trust_band: 'medium',
    quarantine: 'none',
    ...byDana,
  });
}

const out: string[] = [
  `-- mnemo PostgreSQL schema v${version} as released, with the rows a store of that version held.`,
  '-- Generated by scripts/make-postgres-fixture.ts; frozen: never edit, add a fixture for a new version.',
  '-- Load into an empty schema: SET search_path TO <schema>; then run this file.',
];
for (const migration of PG_MIGRATIONS.filter((m) => m.version <= version)) {
  out.push(migration.sql.trim());
}
out.push(`CREATE TABLE schema_migrations (
  version    integer PRIMARY KEY,
  name       text        NOT NULL,
  checksum   text        NOT NULL,
  applied_at timestamptz NOT NULL
);`);
for (const migration of PG_MIGRATIONS.filter((m) => m.version <= version)) {
  out.push(
    `INSERT INTO schema_migrations VALUES (${migration.version}, ${lit(migration.name)}, ${lit(pgMigrationChecksum(migration))}, '2025-02-03T08:00:00.000Z');`,
  );
}
out.push('CREATE VIEW active_memories AS SELECT * FROM memories WHERE superseded_by IS NULL;');
out.push(
  `INSERT INTO vector_spaces (model, dims, table_name, storage) VALUES ('fixture-model', 4, 'vec_1', 'bytea');`,
);
out.push(`CREATE TABLE vec_1 (seq bigint PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
  embedding bytea NOT NULL CHECK (length(embedding) = 16));`);
const releasedLexicalColumn = version >= 5 ? '' : ', lexical_text';
const teamColumns =
  (version >= 2 ? ', author_user, author_host, team_visible' : '') +
  (version >= 4 ? ', source_url, source_host' : '') +
  (version >= 5 ? ', context, lexical_body, lexical_context' : '');
/** v5's context of a row, as the v5 write path derived it (core/text/capture-context.ts then). */
function v5Context(index: number): string {
  const self = rows[index]!;
  const shares = (row: Row) => sharesContext(row.trust_band, row.quarantine);
  if (self.session_id === null || !shares(self)) return '';
  const session = rows.filter(
    (row) =>
      row.session_id === self.session_id && row.project_key === self.project_key && shares(row),
  );
  const at = session.indexOf(self);
  return joinContext(
    session.slice(Math.max(0, at - CONTEXT_BEFORE), at).map((row) => row.content),
    session.slice(at + 1, at + 1 + CONTEXT_AFTER).map((row) => row.content),
  );
}
const v5Tally = new LexicalTally();
/** What the v2 migration gives a row, unless the row says otherwise. */
const teamVisibleOf = (row: Row): boolean =>
  row.team_visible ??
  (row.visibility === 'project' &&
    ['user', 'agent', 'local_edit', 'local_read', 'local_exec'].includes(row.origin));
function v5LexicalValues(index: number): string[] {
  const row = rows[index]!;
  const context = v5Context(index);
  v5Tally.add(lexicalFields(row.content, row.tags, context), 1);
  const columns = lexicalColumns(row.content, row.tags, context);
  return [context, columns.body, columns.context];
}
rows.forEach((row, index) => {
  const seq = index + 1;
  out.push(
    `INSERT INTO memories (id, content, project_key, visibility, kind, tags, origin, origin_tool, session_id,
  created_at, updated_at, last_accessed_at, access_count, heat_base, pinned, supersedes, superseded_by, content_hash,
  embedding_model, trust_band, tainted, quarantine, redactions, gate_reason${releasedLexicalColumn}${teamColumns}) OVERRIDING SYSTEM VALUE VALUES (${[
    row.id,
    row.content,
    row.project_key,
    row.visibility,
    row.kind,
    row.tags,
    row.origin,
    row.origin_tool,
    row.session_id,
    row.created_at,
    row.updated_at,
    null,
    0,
    0,
    row.pinned,
    row.supersedes,
    row.superseded_by,
    contentHash(row.content),
    row.embedding_model,
    row.trust_band,
    false,
    row.quarantine,
    0,
    'novel',
    ...(version >= 5 ? [] : [releasedLexicalText(row.content, row.tags)]),
    ...(version >= 2 ? [row.author_user ?? null, row.author_host ?? null, teamVisibleOf(row)] : []),
    ...(version >= 4 ? [row.source_url ?? null, row.source_host ?? null] : []),
    ...(version >= 5 ? v5LexicalValues(index) : []),
  ]
    .map(lit)
    .join(', ')});`.replace('OVERRIDING SYSTEM VALUE VALUES (', `OVERRIDING SYSTEM VALUE VALUES (`),
  );
  if (row.vector !== undefined) {
    out.push(
      `INSERT INTO vec_1 (seq, embedding) VALUES (${seq}, ${lit(vectorBytes(Float32Array.from(row.vector)))});`,
    );
  }
});
// OVERRIDING SYSTEM VALUE needs the seq column listed; rewrite the inserts to carry it.
for (let i = 0; i < out.length; i += 1) {
  const line = out[i]!;
  if (!line.startsWith('INSERT INTO memories')) continue;
  const seq = rows.findIndex((row) => line.includes(`VALUES ('${row.id}'`)) + 1;
  out[i] = line
    .replace('INSERT INTO memories (id,', 'INSERT INTO memories (seq, id,')
    .replace('OVERRIDING SYSTEM VALUE VALUES (', `OVERRIDING SYSTEM VALUE VALUES (${seq}, `);
}
out.push(`SELECT setval(pg_get_serial_sequence('memories', 'seq'), ${rows.length});`);
if (version >= 5) {
  // The term statistics v5's writes kept, built by the same tally its write path used.
  out.push(
    `UPDATE lexical_state SET analyzer = ${lit(LEXICAL_INDEX_VERSION)}, docs = ${v5Tally.docs}, body_terms = ${v5Tally.bodyTerms}, context_terms = ${v5Tally.contextTerms} WHERE id = 1;`,
  );
  const terms = [...v5Tally.terms].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  out.push(
    `INSERT INTO lexical_terms (term, docs, body) VALUES\n${terms
      .map(([term, t]) => `  (${lit(term)}, ${t.docs}, ${t.body})`)
      .join(',\n')};`,
  );
}
let prev = GENESIS_HASH;
audit.forEach((entry, index) => {
  const seq = index + 1;
  const hash = auditEntryHash(prev, { seq, ...entry });
  out.push(
    `INSERT INTO audit_log VALUES (${[seq, entry.at, entry.action, entry.memoryId, canonicalJson(entry.detail), prev, hash].map(lit).join(', ')});`,
  );
  prev = hash;
});
out.push(
  `INSERT INTO session_taint VALUES ('session-fixture-2', true, ${lit(fetched.created_at)}, 'network', 'WebFetch', ${lit(fetched.created_at)});`,
);
out.push(`INSERT INTO counters VALUES ('2025-02-03', 'write.stored', 5);`);
out.push(
  `INSERT INTO injections (at, session_id, event, source, project_key, memory_ids, tokens) VALUES ('2025-02-03T10:00:00.000Z', 'session-fixture-4', 'session-start', 'startup', ${lit(alpha)}, ARRAY[${lit(build.id)}, ${lit(newDeploy.id)}]::text[], 142);`,
);
// v6 (what the v7 ledger-author migration reads): ledger rows of two people's sessions, which v6 kept
// no author for: a session start of dana's coding session that withheld her private page, and a
// prompt recall into another session.
if (version >= 6) {
  const page = rows.find((row) => row.content.startsWith('Fetched https://forum.example.net'))!;
  const columns = 'at, session_id, event, source, project_key, memory_ids, tokens, withheld';
  const ledger = `INSERT INTO injections (${columns}) VALUES`;
  out.push(
    `${ledger} ('2025-02-04T10:30:00.000Z', 'session-fixture-9', 'session-start', 'resume', ${lit(beta)}, ${lit(rows.filter((row) => row.session_id === 'session-fixture-8' && row !== page).map((row) => row.id))}, 96, ${lit(JSON.stringify([{ id: page.id, reasons: ['tainted'] }]))});`,
    `${ledger} ('2025-02-04T10:35:00.000Z', 'session-fixture-10', 'prompt-recall', NULL, NULL, ARRAY[${lit(build.id)}]::text[], 31, '[]');`,
  );
}
// v7 (what the v8 ledger-index-entries migration reads): rows that record their author, written before
// the ledger told index entries from full ones: a prompt recall of dana's that injected two memories.
if (version >= 7) {
  const columns =
    'at, session_id, event, source, project_key, memory_ids, tokens, withheld, author_user';
  out.push(
    `INSERT INTO injections (${columns}) VALUES ('2025-02-04T11:00:00.000Z', 'session-fixture-11', 'prompt-recall', NULL, ${lit(alpha)}, ARRAY[${lit(build.id)}, ${lit(newDeploy.id)}]::text[], 64, '[]', 'dana');`,
  );
}
writeFileSync(target, `${out.join('\n\n')}\n`);
console.log(`wrote ${target}`);
