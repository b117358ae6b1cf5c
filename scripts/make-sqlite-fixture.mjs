// Writes test/fixtures/sqlite/schema-v<N>.db (+ .json manifest; run prettier on it afterwards) with the schema version this build
// creates, using the built store (run `npm run build` first). A fixture is the frozen output of one
// release: it is made once, when version N ships, and then only ever read by the upgrade tests.
//
//   node scripts/make-sqlite-fixture.mjs [--force]
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { openSqliteStore } from '../dist/store/sqlite/open-sqlite-store.js';
import { writeAnchoredMemories } from './fixture-anchors.mjs';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/sqlite/', import.meta.url));
const force = process.argv.includes('--force');

let time = Date.parse('2025-02-03T09:00:00.000Z');
const clock = { now: () => new Date(time) };
const tick = (minutes) => (time += minutes * 60_000);
let counter = 0;
// Valid, sortable ULIDs that read as fixtures in a diff.
const ids = { next: () => `01JFX${String((counter += 1)).padStart(21, '0')}` };

const probe = `${FIXTURES}probe.db`;
const store = await openSqliteStore({ path: probe, clock, ids });
const version = store.schemaVersion;
await store.close();
rmSync(probe, { force: true });

const dbPath = `${FIXTURES}schema-v${version}.db`;
const manifestPath = `${FIXTURES}schema-v${version}.json`;
if (existsSync(dbPath) && !force) {
  console.error(`${dbPath} exists; released fixtures are frozen. Pass --force to rewrite it.`);
  process.exit(1);
}
rmSync(dbPath, { force: true });

const s = await openSqliteStore({ path: dbPath, clock, ids });
const vector = (...values) => ({ model: 'fixture-model', values: Float32Array.from(values) });
const alpha = '/home/dev/projects/alpha';
const beta = '/home/dev/projects/beta';

const build = await s.remember(
  {
    content: 'Build with `npm run build`; tests need dist/.',
    projectKey: alpha,
    kind: 'fact',
    tags: ['build', 'npm'],
    origin: 'user',
  },
  { vector: vector(1, 0, 0, 0) },
);
tick(5);
const oldDeploy = await s.remember(
  {
    content: 'Deploy with make deploy from the repo root.',
    projectKey: alpha,
    kind: 'decision',
    tags: ['deploy'],
    origin: 'user',
  },
  { vector: vector(0, 1, 0, 0) },
);
tick(5);
const deploy = await s.supersede(
  oldDeploy.memory.id,
  {
    content: 'Deploy with just deploy; the Makefile is gone.',
    projectKey: alpha,
    kind: 'decision',
    tags: ['deploy', 'just'],
    origin: 'user',
  },
  { vector: vector(0, 0.9, 0.1, 0) },
);
tick(5);
const busy = await s.remember({
  content: 'SQLITE_BUSY under parallel hooks: use WAL with busy_timeout.',
  projectKey: alpha,
  kind: 'error',
  tags: ['sqlite'],
  origin: 'local_exec',
  originTool: 'Bash',
  sessionId: 'session-fixture-1',
});
tick(5);
await s.remember({
  content: 'Prefer small pure functions; keep I/O behind ports.',
  projectKey: beta,
  visibility: 'global',
  kind: 'preference',
  tags: ['style'],
  origin: 'user',
  pinned: true,
});
tick(5);
await s.remember(
  {
    content: 'Café résumé parsing must ignore accents.',
    projectKey: beta,
    tags: ['unicode'],
    origin: 'agent',
    heatBase: 2.5,
  },
  { vector: vector(0, 0, 0, 1) },
);
tick(60);
await s.recordAccess([build.memory.id, busy.memory.id]);
await s.updateMemory(busy.memory.id, { tags: ['sqlite', 'concurrency'] });

// v2: the write path's fields and tables. Each later schema adds its own block; a fixture holds what
// its release could write.
const extra = { lexical: [], sessions: [], counters: [], claims: 0 };
if (version >= 2) {
  tick(5);
  const fetched = await s.remember({
    content: 'The API docs say rate limits reset every hour.',
    projectKey: alpha,
    kind: 'capture',
    tags: ['api'],
    origin: 'network',
    originTool: 'WebFetch',
    sessionId: 'session-fixture-2',
  });
  tick(5);
  const tainted = await s.remember({
    content: 'Use token [REDACTED] for the staging API.',
    projectKey: alpha,
    tags: ['staging'],
    origin: 'agent_tainted',
    originTool: 'mcp__mnemo__remember',
    sessionId: 'session-fixture-2',
    tainted: true,
    redactions: 1,
  });
  tick(5);
  const fix = await s.remember({
    content: 'Error: vitest hangs on open handles; fixed by closing the store in afterEach.',
    projectKey: alpha,
    kind: 'fix',
    tags: ['testing'],
    origin: 'agent',
    originTool: 'mcp__mnemo__remember',
    sessionId: 'session-fixture-3',
    gateReason: 'bypass_cue',
  });
  tick(5);
  await s.setQuarantine(fetched.memory.id, 'approved', 'cli');
  await s.setQuarantine(tainted.memory.id, 'rejected', 'cli');
  await s.recordMerge(fix.memory.id, { similarity: 0.97, origin: 'agent' });
  await s.markSessionTainted('session-fixture-2', 'network', 'WebFetch');
  tick(1);
  await s.markSessionTainted('session-fixture-3', 'unknown', 'mcp__other__fetch');
  await s.clearSessionTaint('session-fixture-3');
  await s.recordRememberClaim({
    sessionId: 'session-fixture-3',
    contentHash: 'ab'.repeat(32),
    toolUseId: 'toolu_fixture',
  });
  await s.bumpCounter('captures.stored', 3);
  await s.bumpCounter('captures.skipped.duplicate');
  tick(24 * 60);
  await s.bumpCounter('captures.stored');
  extra.lexical.push(
    { query: 'rate limits', includeSuperseded: false, ids: [fetched.memory.id] },
    { query: 'staging token', includeSuperseded: false, ids: [] },
    {
      query: 'staging token',
      includeSuperseded: false,
      quarantine: ['rejected'],
      ids: [tainted.memory.id],
    },
  );
  for (const id of ['session-fixture-2', 'session-fixture-3']) {
    extra.sessions.push(await s.getSessionTaint(id));
  }
  extra.counters = await s.readCounters('2025-01-01');
  extra.claims = 1;
}

// v4: the injection ledger. Ids of memories that exist, one that was forgotten since (the ledger is
// history and keeps it), two sessions, both events.
const injections = [];
if (version >= 4) {
  tick(5);
  const gone = await s.remember({
    content: 'Temporary note, forgotten after it was injected.',
    projectKey: alpha,
    origin: 'user',
  });
  await s.recordInjection({
    sessionId: 'session-fixture-4',
    event: 'session-start',
    source: 'startup',
    projectKey: alpha,
    memoryIds: [build.memory.id, gone.memory.id],
    tokens: 142,
  });
  tick(1);
  await s.forget(gone.memory.id);
  await s.recordInjection({
    sessionId: 'session-fixture-4',
    event: 'prompt-recall',
    source: null,
    projectKey: alpha,
    memoryIds: [busy.memory.id],
    tokens: 61,
  });
  tick(1);
  await s.recordInjection({
    sessionId: 'session-fixture-5',
    event: 'session-start',
    source: 'compact',
    projectKey: null,
    memoryIds: [build.memory.id],
    tokens: 50,
  });
  injections.push(...(await s.listInjections({ limit: 100 })));
}

// v5: code anchors (a write-time set with a file anchor, a symbol and a mention; a set replaced by a
// re-verification; a cached check) and an injection that withheld a memory. Older rows stay pending.
const anchorSets = [];
if (version >= 5) {
  const { anchored, moved } = await writeAnchoredMemories(s, { alpha, tick, now: () => time });
  tick(1);
  await s.recordInjection({
    sessionId: 'session-fixture-7',
    event: 'session-start',
    source: 'startup',
    projectKey: alpha,
    memoryIds: [anchored.memory.id],
    tokens: 40,
    withheld: [{ id: moved.memory.id, reasons: ['cited_files_deleted'] }],
  });
  const sets = await s.getAnchorSets([anchored.memory.id, moved.memory.id]);
  anchorSets.push(...sets.values());
  injections.length = 0;
  injections.push(...(await s.listInjections({ limit: 100 })));
}

// v6: teams. Memories written by a store opened as an author: a team-visible project memory, a
// private global preference, and a private project note shared explicitly later.
let authored = s;
let preference;
if (version >= 6) {
  await s.close();
  authored = await openSqliteStore({
    path: dbPath,
    clock,
    ids,
    author: { user: 'dana', host: 'dana-laptop' },
  });
  tick(5);
  await authored.remember({
    content: 'The release checklist lives in docs/release.md.',
    projectKey: alpha,
    kind: 'fact',
    origin: 'user',
  });
  tick(5);
  preference = await authored.remember({
    content: 'I like terse commit messages.',
    projectKey: alpha,
    visibility: 'global',
    kind: 'preference',
    origin: 'user',
  });
  tick(5);
  const shared = await authored.remember({
    content: 'Draft: the cache may go.',
    projectKey: alpha,
    origin: 'user',
    teamVisible: false,
  });
  await authored.updateMemory(shared.memory.id, { teamVisible: true });
}

// v7: the source address of a capture (a fetched page), pending review as network content is.
if (version >= 7) {
  tick(5);
  const page = await authored.remember({
    content: 'Fetched https://docs.example.com/quotas:\nQuota windows reset at midnight UTC.',
    projectKey: alpha,
    kind: 'capture',
    origin: 'network',
    originTool: 'WebFetch',
    sessionId: 'session-fixture-7',
    sourceUrl: 'https://docs.example.com/quotas',
  });
  extra.lexical.push({ query: 'midnight', includeSuperseded: false, ids: [page.memory.id] });
}

// v8: a coding session whose captures give each other context (an untrusted fetch in between gives and
// gets none).
if (version >= 8) {
  const session = 'session-fixture-8';
  const captures = [
    ['npm install failed: ENOSPC no space left on device', 'error', 'local_exec', 'Bash'],
    ['Forum post: reinstall the operating system to free space', 'capture', 'network', 'WebFetch'],
    ['Freed the disk with docker system prune; install passes', 'fix', 'local_exec', 'Bash'],
    ['Edited ci.yml: prune docker images before npm install', 'capture', 'local_edit', 'Edit'],
  ];
  const written = [];
  for (const [content, kind, origin, originTool] of captures) {
    tick(2);
    const at = { content, projectKey: beta, kind, origin, originTool, sessionId: session };
    written.push(await authored.remember(at));
  }
  const [failed, page, fixed, edited] = written;
  const near = [failed, fixed, edited].map((written) => written.memory.id).sort();
  extra.lexical.push(
    // Found through its own text and, at a lower weight, through its neighbours' (context).
    { query: 'ENOSPC', includeSuperseded: false, ids: near },
    // The untrusted page neither gives nor gets context.
    { query: 'reinstall', includeSuperseded: false, ids: [page.memory.id] },
  );
}

// v10: the ledger records whose session it was. The store is opened as dana here: an injection into a
// session of hers that injects her private preference and withholds a memory. The rows before v10 keep
// no author.
if (version >= 10) {
  tick(5);
  await authored.recordInjection({
    sessionId: 'session-fixture-10',
    event: 'session-start',
    source: 'resume',
    projectKey: alpha,
    memoryIds: [preference.memory.id, build.memory.id],
    tokens: 88,
    withheld: [{ id: busy.memory.id, reasons: ['tainted'] }],
  });
  injections.length = 0;
  injections.push(...(await authored.listInjections({ limit: 100 })));
}

// v11: the ledger records which memories a session was shown only as an index entry. A prompt of
// dana's session gets the build memory in full and the deploy memory as an index line.
if (version >= 11) {
  tick(1);
  await authored.recordInjection({
    sessionId: 'session-fixture-10',
    event: 'prompt-recall',
    source: null,
    projectKey: alpha,
    memoryIds: [build.memory.id, deploy.current.id],
    indexIds: [deploy.current.id],
    tokens: 57,
  });
  injections.length = 0;
  injections.push(...(await authored.listInjections({ limit: 100 })));
}

const memories = [];
for await (const record of authored.exportMemories()) memories.push(record);
await authored.close();

const manifest = {
  schemaVersion: version,
  memories,
  lexical: [
    { query: 'deploy', includeSuperseded: false, ids: [memories[2].id] },
    { query: 'deploy', includeSuperseded: true, ids: [memories[2].id, memories[1].id].sort() },
    { query: 'cafe resume', includeSuperseded: false, ids: [memories[5].id] },
    { query: 'concurrency busy', includeSuperseded: false, ids: [memories[3].id] },
    ...extra.lexical,
  ],
  vector: [
    { model: 'fixture-model', values: [0.1, 1, 0, 0], nearest: memories[2].id },
    { model: 'fixture-model', values: [1, 0.1, 0, 0], nearest: memories[0].id },
  ],
  ...(version >= 2
    ? { sessions: extra.sessions, counters: extra.counters, claims: extra.claims }
    : {}),
  ...(version >= 4 ? { injections } : {}),
  ...(version >= 5 ? { anchorSets } : {}),
};
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote ${dbPath} and ${manifestPath}`);
