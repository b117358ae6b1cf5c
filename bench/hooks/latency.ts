/**
 * Hook latency through the built binary: `npm run bench:hooks [-- --memories 5000 --runs 15 --cited 0
 * --json out.json]`. Creates a scratch home whose store holds `--memories` user memories in one project,
 * then times whole `mnemo hook <event>` processes fed recorded payloads, as Claude Code runs them.
 * Baselines measured in the same run: bare `node` start-up and `mnemo --version` (Node start-up plus the
 * CLI's own loading). No engine runs, so prompt recall takes the store-only path.
 *
 * `--cited N` makes the project a real git repository of 200 files and adds N decisions, newest, each
 * citing one of them (anchored as a write would anchor them, where this build has anchors), then edits
 * and commits 20 of the files: session start then checks real anchors, some stale.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { percentile } from '../retrieval/metrics.js';
import { ms, table } from '../retrieval/report.js';
import { seededRandom, syntheticText } from '../retrieval/synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '15' },
    cited: { type: 'string', default: '0' },
    json: { type: 'string' },
  },
});
const memoryCount = Number(args.memories);
const runs = Number(args.runs);
const cited = Number(args.cited);
const CITED_FILES = 200;
const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/hooks/', import.meta.url));
const FIXTURE_CWD = '/home/dev/work/acme-api';

const root = mkdtempSync(join(tmpdir(), 'mnemo-bench-hooks-'));
const home = join(root, 'home');
const project = join(root, 'project');
mkdirSync(join(project, '.git'), { recursive: true });
// The file the recorded Edit payload changes exists, as in a real checkout: the capture may anchor it.
mkdirSync(join(project, 'src', 'checkout'), { recursive: true });
writeFileSync(join(project, 'src', 'checkout', 'cart.ts'), 'export const total = 0;\n');
const env = {
  PATH: process.env['PATH'],
  HOME: root,
  MNEMO_HOME: home,
  MNEMO_ENGINE_AUTOSTART: '0',
};

function payload(name: string, sessionId: string): string {
  const text = readFileSync(join(FIXTURES, `${name}.json`), 'utf8')
    .split(FIXTURE_CWD)
    .join(project);
  const value = JSON.parse(text) as Record<string, unknown>;
  value['session_id'] = sessionId;
  return JSON.stringify(value);
}

function time(command: string, argv: readonly string[], input = ''): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { env, cwd: project, input });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${String(result.status)}`);
  return elapsed;
}

function git(...argv: string[]): void {
  execFileSync('git', ['-C', project, ...argv], {
    env: {
      ...env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@x',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@x',
    },
  });
}

/** A real repository of CITED_FILES files, committed (the `.git` placeholder is replaced). */
function makeRepository(): void {
  rmSync(join(project, '.git'), { recursive: true, force: true });
  git('init', '-q', '-b', 'main');
  mkdirSync(join(project, 'src'), { recursive: true });
  for (let i = 0; i < CITED_FILES; i += 1) {
    writeFileSync(
      join(project, 'src', `f${i}.ts`),
      `export function handler${i}() { return ${i}; }\n`,
    );
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'files');
}

/** The anchoring of this build, when it has one (a build before anchors seeds plain memories). */
async function anchorer(): Promise<((content: string) => object | undefined) | undefined> {
  try {
    const { anchorContent } = (await import('../../src/anchors/anchor-content.js')) as {
      anchorContent: (content: string, dir: string, now: Date) => object | undefined;
    };
    return (content) => anchorContent(content, project, new Date());
  } catch {
    return undefined;
  }
}

async function seed(): Promise<void> {
  const store = await openSqliteStore({ path: join(home, 'mnemo.db') });
  const random = seededRandom(7);
  const kinds = ['decision', 'fix', 'error', 'note'] as const;
  for (let i = 0; i < memoryCount; i += 1) {
    await store.remember({
      content: syntheticText(random, i),
      projectKey: project,
      kind: kinds[i % kinds.length],
      origin: 'user',
    });
  }
  if (cited > 0) {
    makeRepository();
    const anchor = await anchorer();
    for (let i = 0; i < cited; i += 1) {
      const content = `Decision ${i}: handler${i % CITED_FILES} in src/f${i % CITED_FILES}.ts owns this route.`;
      const anchors = anchor?.(content);
      await store.remember(
        { content, projectKey: project, kind: 'decision', origin: 'user' },
        anchors === undefined ? undefined : ({ anchors } as never),
      );
    }
    for (let i = 0; i < 20; i += 1) {
      writeFileSync(join(project, 'src', `f${i}.ts`), `export function renamed${i}() {}\n`);
    }
    git('commit', '-q', '-am', 'edit 20 files');
  }
  await store.close();
}

interface Row {
  name: string;
  p50: number;
  p95: number;
}

function measure(name: string, sample: (run: number) => number): Row {
  sample(-1); // warm the page cache
  const samples = Array.from({ length: runs }, (_, run) => sample(run));
  return { name, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

try {
  process.stderr.write(`seeding ${memoryCount} memories...\n`);
  await seed();
  const rows = [
    measure('node -e "" (baseline)', () => time(process.execPath, ['-e', ''])),
    measure('mnemo --version (baseline)', () => time(process.execPath, [BIN, '--version'])),
    measure('hook session-start (startup, full pack)', (run) =>
      time(
        process.execPath,
        [BIN, 'hook', 'session-start'],
        payload('session-start.startup', `s-${run}`),
      ),
    ),
    measure('hook user-prompt-submit (prompt recall)', (run) =>
      time(
        process.execPath,
        [BIN, 'hook', 'user-prompt-submit'],
        payload('user-prompt-submit', `p-${run}`),
      ),
    ),
    measure('hook post-tool-use (Edit capture)', (run) =>
      time(
        process.execPath,
        [BIN, 'hook', 'post-tool-use'],
        payload('post-tool-use-edit', `e-${run}`),
      ),
    ),
    measure('hook post-tool-use (Read, skipped)', (run) =>
      time(
        process.execPath,
        [BIN, 'hook', 'post-tool-use'],
        payload('post-tool-use-read', `r-${run}`),
      ),
    ),
  ];
  const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(
    `Hook latency, whole process, ${memoryCount} memories${cited > 0 ? ` + ${cited} citing files of a git repository` : ''}, ${runs} runs each (${machine})\n\n` +
      table(
        ['step', 'p50 ms', 'p95 ms'],
        rows.map((row) => [row.name, ms(row.p50), ms(row.p95)]),
      ) +
      '\n',
  );
  if (args.json !== undefined) {
    writeFileSync(
      args.json,
      `${JSON.stringify({ memoryCount, cited, runs, machine, rows }, null, 2)}\n`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
