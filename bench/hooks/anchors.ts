/**
 * In-process cost of code anchors on the hook path: `npx tsx bench/hooks/anchors.ts [--memories 150
 * --runs 20]`. A real git repository of 200 files; `--memories` decisions each citing one file, anchored
 * as a write anchors them; then 20 of the files are edited and committed. Times, per run:
 *
 * - the anchoring of one capture (what a PostToolUse Edit write adds),
 * - a session start's check of every candidate with a cold cache (after the commit: hashes, `git`),
 * - the same check with the cache warm (what every later session start pays),
 *
 * next to the store read session start does anyway (`listMemories` of 100 recent), as the baseline.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { anchorContent } from '../../src/anchors/anchor-content.js';
import { checkStaleness, scopeOf } from '../../src/anchors/check-staleness.js';
import { hookBudget } from '../../src/anchors/verify-anchors.js';
import type { Memory } from '../../src/core/memory.js';
import { createLogger } from '../../src/log/log.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { percentile } from '../retrieval/metrics.js';
import { ms, table } from '../retrieval/report.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '150' },
    runs: { type: 'string', default: '20' },
  },
});
const count = Number(args.memories);
const runs = Number(args.runs);
const FILES = 200;

const root = mkdtempSync(join(tmpdir(), 'mnemo-bench-anchors-'));
const project = join(root, 'project');
const env = {
  PATH: process.env['PATH'],
  HOME: root,
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@x',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@x',
};
const git = (...argv: string[]) => execFileSync('git', ['-C', project, ...argv], { env });
const clock = { now: () => new Date() };
const log = createLogger({ file: join(root, 'bench.log'), level: 'warn', clock });

function time(work: () => unknown): number {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function timeAsync(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const row = (name: string, samples: number[]) => [
  name,
  ms(percentile(samples, 50)),
  ms(percentile(samples, 95)),
];

try {
  mkdirSync(join(project, 'src'), { recursive: true });
  git('init', '-q', '-b', 'main');
  // Files older than the 2 s racy window (a file modified within it is never cached), as a
  // checkout's files are; edits below are a minute old, as a session start after an edit sees them.
  const aged = (file: string, msAgo: number) => {
    const at = new Date(Date.now() - msAgo);
    utimesSync(file, at, at);
  };
  for (let i = 0; i < FILES; i += 1) {
    const file = join(project, 'src', `f${i}.ts`);
    writeFileSync(file, `export function handler${i}() {}\n`.repeat(40));
    aged(file, 3_600_000);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'files');
  const results: string[][] = [];
  const samples = {
    write: [] as number[],
    cold: [] as number[],
    warm: [] as number[],
    list: [] as number[],
  };
  for (let run = 0; run < runs; run += 1) {
    const store = await openSqliteStore({ path: join(root, `store-${run}.db`) });
    const memories: Memory[] = [];
    for (let i = 0; i < count; i += 1) {
      const content = `Decision ${run}.${i}: handler${i % FILES} in src/f${i % FILES}.ts owns this route.`;
      let anchors: ReturnType<typeof anchorContent>;
      const spent = time(() => (anchors = anchorContent(content, project, clock.now())));
      if (i === 0) samples.write.push(spent);
      const { memory } = await store.remember(
        { content, projectKey: project, kind: 'decision', origin: 'user' },
        anchors === undefined ? undefined : { anchors },
      );
      memories.push(memory);
    }
    for (let i = 0; i < 20; i += 1) {
      const file = join(project, 'src', `f${(run + i) % FILES}.ts`);
      writeFileSync(file, `export const v${run} = ${i};\n`);
      aged(file, 60_000);
    }
    git('commit', '-q', '-am', `edit ${run}`);
    const deps = { store, clock, log };
    const scope = () => scopeOf(project, project, hookBudget());
    samples.list.push(
      await timeAsync(() =>
        store.listMemories({ scope: { projectKey: project, includeGlobal: true }, limit: 100 }),
      ),
    );
    samples.cold.push(await timeAsync(() => checkStaleness(deps, scope(), memories)));
    samples.warm.push(await timeAsync(() => checkStaleness(deps, scope(), memories)));
    await store.close();
  }
  results.push(
    row('store.listMemories, 100 recent (baseline)', samples.list),
    row('anchor one capture at write time', samples.write),
    row(`check ${count} candidates, cold cache (hash, git)`, samples.cold),
    row(`check ${count} candidates, warm cache`, samples.warm),
  );
  const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(
    `Anchor cost in process, ${count} anchored candidates, ${FILES} files, ${runs} runs (${machine})\n\n` +
      table(['step', 'p50 ms', 'p95 ms'], results) +
      '\n',
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
