/**
 * Concepts of software work that people ask about by their kind while memories name the thing itself:
 * "which package manager do we use" against "We use pnpm, not npm". No word of the question is in the
 * memory, so the lexical legs cannot see it and a weak sentence model ranks it among unrelated notes.
 * A concept named by the question (a cue phrase, as whole words) whose members the question does not
 * already name becomes an extra lexical query of its members (retrieval/legs.ts, the `concept` leg).
 *
 * This only adds candidates and ranking evidence; it never decides what is stored, trusted or injected.
 * Pure and bounded: a fixed table, queries scanned up to `MAX_CONCEPT_SCAN_CHARS`.
 */
import { analyzeQuery, words } from './analyze.js';

export interface Concept {
  /** Stable name, shown in `recall --explain`. */
  name: string;
  /** Phrases that name the concept, lowercase words separated by single spaces. */
  cues: readonly string[];
  /** Things of that kind, as they are written in notes: single lowercase words. */
  members: readonly string[];
}

export const MAX_CONCEPT_SCAN_CHARS = 2_048;

/** At most this many concepts per query: a prompt naming many is not asking about one of them. */
export const MAX_CONCEPTS_PER_QUERY = 3;

export const CONCEPTS: readonly Concept[] = [
  {
    name: 'package manager',
    cues: ['package manager', 'package managers', 'dependency manager', 'install dependencies'],
    members: ['pnpm', 'npm', 'yarn', 'bun', 'pip', 'poetry', 'uv', 'cargo', 'maven', 'gradle'],
  },
  {
    name: 'test runner',
    cues: [
      'test runner',
      'test framework',
      'testing framework',
      'unit test framework',
      'run the tests',
    ],
    members: ['vitest', 'jest', 'mocha', 'ava', 'jasmine', 'pytest', 'unittest', 'junit'],
  },
  {
    name: 'end-to-end testing',
    cues: ['end to end tests', 'end to end testing', 'e2e tests', 'e2e testing', 'browser tests'],
    members: ['playwright', 'cypress', 'puppeteer', 'selenium', 'webdriver'],
  },
  {
    name: 'database',
    cues: ['database', 'databases', 'datastore', 'data store'],
    members: [
      'postgresql',
      'postgres',
      'mysql',
      'mariadb',
      'sqlite',
      'mongodb',
      'dynamodb',
      'cockroachdb',
    ],
  },
  {
    name: 'query builder',
    cues: ['orm', 'query builder', 'database client', 'database library'],
    members: [
      'prisma',
      'kysely',
      'drizzle',
      'typeorm',
      'sequelize',
      'knex',
      'sqlalchemy',
      'mikroorm',
    ],
  },
  {
    name: 'web framework',
    cues: [
      'web framework',
      'http framework',
      'server framework',
      'backend framework',
      'http server',
    ],
    members: ['express', 'fastify', 'koa', 'hono', 'nestjs', 'django', 'flask', 'fastapi', 'rails'],
  },
  {
    name: 'frontend framework',
    cues: [
      'frontend framework',
      'front end framework',
      'ui framework',
      'ui library',
      'component library',
    ],
    members: ['react', 'vue', 'svelte', 'angular', 'preact', 'nextjs', 'nuxt', 'remix'],
  },
  {
    name: 'bundler',
    cues: ['bundler', 'build tool', 'bundle the', 'build system'],
    members: ['vite', 'webpack', 'esbuild', 'rollup', 'parcel', 'tsup', 'turbopack', 'rspack'],
  },
  {
    name: 'linter and formatter',
    cues: ['linter', 'lint rules', 'formatter', 'code style', 'code formatting'],
    members: ['eslint', 'prettier', 'biome', 'ruff', 'stylelint', 'rubocop', 'clippy'],
  },
  {
    name: 'continuous integration',
    cues: ['ci', 'continuous integration', 'ci pipeline', 'build pipeline'],
    members: ['github', 'gitlab', 'circleci', 'jenkins', 'buildkite', 'travis'],
  },
  {
    name: 'hosting',
    cues: ['hosting', 'hosted', 'deploy', 'deployed', 'deployment', 'deploys', 'cloud provider'],
    members: ['vercel', 'netlify', 'aws', 'heroku', 'cloudflare', 'gcp', 'azure', 'kubernetes'],
  },
  {
    name: 'containers',
    cues: ['container', 'containers', 'containerised', 'containerized'],
    members: ['docker', 'dockerfile', 'compose', 'podman', 'kubernetes', 'helm'],
  },
  {
    name: 'logging',
    cues: ['logger', 'logging', 'log library', 'structured logs'],
    members: ['pino', 'winston', 'bunyan', 'log4j', 'logrus', 'structlog'],
  },
  {
    name: 'queue',
    cues: ['job queue', 'message queue', 'message broker', 'background jobs', 'task queue'],
    members: ['kafka', 'rabbitmq', 'sqs', 'bullmq', 'nats', 'celery', 'sidekiq'],
  },
  {
    name: 'cache',
    cues: ['cache', 'caching', 'cache layer'],
    members: ['redis', 'memcached', 'valkey'],
  },
  {
    name: 'validation',
    cues: ['validation library', 'schema validation', 'validate input', 'input validation'],
    members: ['zod', 'yup', 'joi', 'ajv', 'valibot', 'pydantic'],
  },
  {
    name: 'authentication',
    cues: ['authentication', 'auth provider', 'login provider', 'identity provider'],
    members: ['oauth', 'oidc', 'jwt', 'auth0', 'clerk', 'passport', 'cognito', 'keycloak', 'saml'],
  },
];

/**
 * The concepts a query names by a cue (whole words, in order) and whose members it names none of, at
 * most `MAX_CONCEPTS_PER_QUERY`, in table order.
 */
export function conceptsOf(query: string): Concept[] {
  const said = words(query.slice(0, MAX_CONCEPT_SCAN_CHARS));
  if (said.length === 0) return [];
  const text = ` ${said.join(' ')} `;
  const named = new Set(said);
  const found: Concept[] = [];
  for (const concept of CONCEPTS) {
    if (!concept.cues.some((cue) => text.includes(` ${cue} `))) continue;
    if (concept.members.some((member) => named.has(member))) continue;
    found.push(concept);
    if (found.length >= MAX_CONCEPTS_PER_QUERY) break;
  }
  return found;
}

/** The lexical query of the concepts' members. */
export function conceptQuery(concepts: readonly Concept[]): string {
  return [...new Set(concepts.flatMap((concept) => concept.members))].join(' ');
}

/**
 * The share of the query's terms (analyzeQuery) that are words of a cue by which it names one of
 * `concepts`: what a memory naming a member of that concept answers of the query although it holds
 * none of those words ("which package manager" is all cue, so "We use pnpm" answers all of it).
 * Unweighted by idf, so a cue never counts for more than its words' share of the query. 0 without a
 * concept or a query term.
 */
export function cueCoverage(query: string, concepts: readonly Concept[]): number {
  const terms = analyzeQuery(query);
  if (terms.length === 0 || concepts.length === 0) return 0;
  const said = ` ${words(query.slice(0, MAX_CONCEPT_SCAN_CHARS)).join(' ')} `;
  const cueTerms = new Set<string>();
  for (const concept of concepts) {
    for (const cue of concept.cues) {
      if (!said.includes(` ${cue} `)) continue;
      for (const term of analyzeQuery(cue)) cueTerms.add(term);
    }
  }
  return terms.filter((term) => cueTerms.has(term)).length / terms.length;
}
