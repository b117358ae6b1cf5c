/**
 * Deterministic, realistic-looking memory texts for the latency benchmark: the notes a coding agent
 * keeps (decisions, errors, fixes, preferences, facts) built from templates over vocabularies with a
 * Zipf-like skew, so the lexical index sees common and rare terms as in real use. Seeded; pure.
 */

import { seededRandom } from '../../src/store/contract/fixtures.js';

export { seededRandom };

const VOCAB = {
  component: `parser scheduler cache router store indexer tokenizer renderer uploader worker queue
    session auth billing search ingest exporter importer migrator watcher logger config cli server
    client gateway proxy resolver compiler bundler linter formatter planner executor reporter`,
  lib: `sqlite postgres redis kafka zod vitest eslint prettier esbuild vite react hono express
    fastify prisma kysely drizzle pino winston commander yargs undici axios lodash dayjs luxon
    pnpm npm yarn docker terraform nginx grpc protobuf graphql openapi jest mocha`,
  file: `src/index.ts src/app.ts src/store/db.ts src/cli/main.ts src/api/routes.ts lib/util.js
    scripts/build.mjs test/setup.ts config/default.json package.json tsconfig.json Dockerfile
    src/core/model.ts src/jobs/worker.ts src/http/server.ts migrations/004_add_index.sql`,
  error: `ECONNREFUSED ETIMEDOUT SQLITE_BUSY EADDRINUSE ENOENT TypeError ReferenceError
    ERR_MODULE_NOT_FOUND SyntaxError RangeError EPIPE EACCES deadlock timeout segfault OOM`,
  verb: `use switch to prefer avoid pin upgrade downgrade replace keep drop wrap retry batch cache
    debounce stream paginate validate sanitize memoize shard index vacuum`,
  reason: `it is faster under load|the old one leaked memory|tests were flaky on CI|it keeps the
    bundle small|the API is simpler|it handles unicode correctly|we need WAL for concurrent writers|
    the team already knows it|it works offline|cold start must stay under 150 ms|the licence is MIT|
    it supports Node 20|error messages are clearer|it avoids a native build step`,
  person: `Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert`,
} as const;

const words = Object.fromEntries(
  Object.entries(VOCAB).map(([key, text]) => [
    key,
    (key === 'reason' ? text.split('|') : text.split(/\s+/)).map((w) => w.trim()).filter(Boolean),
  ]),
) as Record<keyof typeof VOCAB, string[]>;

const TEMPLATES: readonly string[] = [
  'Decided to {verb} {lib} in the {component} because {reason}.',
  'The {component} failed with {error} when {lib} was under load; fixed by adding a retry in {file}.',
  'Fix: {error} in {file} came from the {component} calling {lib} before init. Moved the call.',
  '{person} prefers {lib} over {lib} for the {component}; {reason}.',
  'Run `npm test -- {file}` before touching the {component}: {reason}.',
  'The {component} reads its settings from {file}; {verb} them instead of hard-coding values.',
  'Known issue: {lib} {verb}s badly with the {component}, which shows up as {error} in {file}.',
  'Checkpoint: {component} migrated to {lib}, {component} still on {lib}. Next: {verb} the {component}.',
  'Do not {verb} {lib} in {file}; {person} reverted that twice because {reason}.',
  'Performance note: the {component} spends most time in {lib}; {verb} results per request.',
];

/** Picks with a Zipf-like skew: early entries are much more common than late ones. */
function pick(list: readonly string[], random: () => number): string {
  return list[Math.floor(list.length * random() ** 2)]!;
}

/** The `index`-th text of the stream seeded by `seed` (distinct indexes give distinct texts). */
export function syntheticText(random: () => number, index: number): string {
  const template = pick(TEMPLATES, random);
  const body = template.replaceAll(/\{(\w+)\}/g, (_, key: string) =>
    pick(words[key as keyof typeof VOCAB], random),
  );
  // A ticket reference keeps every text unique (the store dedupes identical content per project).
  return `${body} (ref #${index})`;
}

/** Memories per session in the synthetic stores: a working session's worth of captures. */
export const SESSION_SIZE = 20;

/** The session of the `index`-th memory: consecutive memories share one, `SESSION_SIZE` at a time. */
export function syntheticSession(index: number): string {
  return `bench-session-${Math.floor(index / SESSION_SIZE)}`;
}

/**
 * The `index`-th memory as the latency benchmark writes it: the user's own, in its session, so the store
 * derives its context from its session neighbours as it does for captured sessions.
 */
export function syntheticMemory(content: string, index: number, projectKey: string) {
  return { content, projectKey, origin: 'user', sessionId: syntheticSession(index) } as const;
}

/** A query like an agent's recall: a few content words, sometimes a question. */
export function syntheticQuery(random: () => number): string {
  const style = random();
  if (style < 0.4) return `${pick(words.component, random)} ${pick(words.lib, random)}`;
  if (style < 0.7) return `why did we ${pick(words.verb, random)} ${pick(words.lib, random)}`;
  if (style < 0.85) return `${pick(words.error, random)} in ${pick(words.component, random)}`;
  return `what does ${pick(words.person, random)} prefer for the ${pick(words.component, random)}`;
}
