/**
 * Hook latency through the built binary, as Claude Code runs hooks: whole `mnemo hook <event>` processes
 * fed the recorded payloads of test/fixtures/hooks, against a scratch home seeded with N user memories,
 * with the resident engine down and up.
 *
 *   npm run bench:hooks [-- --memories 1000,10000,100000 --runs 15 --json out.json --before <checkout>]
 *
 * Every figure is also given as a ratio to bare `node -e ""` measured in the same run: the steps of one
 * configuration are sampled round-robin (node, then each hook, then node again...), so load from other
 * processes on the machine falls on the baseline and the hooks alike. The engine runs with the hash
 * embedder and memories are seeded with its vectors, so it has nothing to embed while it is measured.
 * `--cited N` makes each project a real git repository of 200 files and adds N decisions, newest, each
 * citing one of them (anchored as a write anchors them), then edits and commits 20 of the files: session
 * start then checks real anchors, some stale.
 *
 * The load average at the start and end is printed, since a busy machine widens every p95; each process
 * also reports its own CPU time (bench/hooks/cpu-report.cjs, preloaded into the baseline and the hooks
 * alike), which other load on the machine barely changes.
 *
 * `--before <checkout>` also measures the hooks of another built checkout of mnemo (its
 * `dist/cli/mnemo.cjs`, or `dist/cli/main.js` for builds that predate it) in the same round-robin, each
 * against its own home holding the same memories (seeded by that checkout's store code, so in its own
 * schema version) and, with the engine up, its own engine: a before/after comparison under the same load.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { anchorContent } from '../../src/anchors/anchor-content.js';
import { hashEmbed } from '../../src/embed/hash-embedder.js';
import { pingEngine, stopEngine } from '../../src/engine/engine-client.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { percentile } from '../retrieval/metrics.js';
import { ms, table } from '../retrieval/report.js';
import { seededRandom, syntheticText } from '../retrieval/synthetic-text.js';

const { values: args } = parseArgs({
  options: {
    memories: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '15' },
    cited: { type: 'string', default: '0' },
    json: { type: 'string' },
    before: { type: 'string' },
  },
});
const memoryCounts = args.memories.split(',').map(Number);
const runs = Number(args.runs);
const cited = Number(args.cited);
const CITED_FILES = 200;
const BIN = fileURLToPath(new URL('../../dist/cli/mnemo.cjs', import.meta.url));

/** The executable of a built checkout: the CommonJS launcher where it has one. */
function executableOf(checkout: string): string {
  const launcher = join(checkout, 'dist', 'cli', 'mnemo.cjs');
  return existsSync(launcher) ? launcher : join(checkout, 'dist', 'cli', 'main.js');
}
const BEFORE_BIN = args.before === undefined ? undefined : executableOf(args.before);
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/hooks/', import.meta.url));
/** Gemini CLI's recorded payloads, in FIXTURES' terms. */
const GEMINI = '../clients/hooks/gemini/';
const FIXTURE_CWD = '/home/dev/work/acme-api';
const HASH_DIMS = 256;

interface Step {
  name: string;
  argv: readonly string[];
  input?: (run: number) => string;
  /** The home this step runs against (default: the configuration's). */
  home?: string;
  /** Variables this step sets over the configuration's. */
  env?: Record<string, string>;
  /** Runs before each sample, untimed. */
  prepare?: () => void;
}

interface Row {
  name: string;
  p50: number;
  p95: number;
  /** Median CPU time (user + system) of the process, ms, and its ratio to bare node's. */
  cpuP50: number;
  cpuRatioP50: number;
  /** p50 and p95 divided by those of bare `node -e ""` in the same configuration. */
  ratioP50: number;
  ratioP95: number;
}

interface Result {
  memories: number;
  engine: 'down' | 'up';
  rows: Row[];
}

function payload(project: string, name: string, patch: (value: Record<string, unknown>) => void) {
  const text = readFileSync(join(FIXTURES, `${name}.json`), 'utf8')
    .split(FIXTURE_CWD)
    .join(project);
  const value = JSON.parse(text) as Record<string, unknown>;
  patch(value);
  return JSON.stringify(value);
}

/** The hook steps of executable `bin`, names prefixed with `label`. */
function hookSteps(project: string, bin: string, label: string, home?: string): Step[] {
  const hook = (
    name: string,
    event: string,
    fixture: string,
    patch: (value: Record<string, unknown>, run: number) => void,
  ): Step => ({
    name: `${label}${name}`,
    argv: [bin, 'hook', ...event.split(' ')],
    input: (run) => payload(project, fixture, (value) => patch(value, run)),
    ...(home === undefined ? {} : { home }),
  });
  return [
    hook(
      'hook session-start (startup, full pack)',
      'session-start',
      'session-start.startup',
      (value, run) => {
        value['session_id'] = `s-${run}`;
      },
    ),
    hook(
      'hook user-prompt-submit (prompt recall)',
      'user-prompt-submit',
      'user-prompt-submit',
      (value, run) => {
        value['session_id'] = `p-${run}`;
      },
    ),
    // A new file each run, so every Edit is a novel capture rather than a merge into the first.
    hook(
      'hook post-tool-use (Edit capture)',
      'post-tool-use',
      'post-tool-use-edit',
      (value, run) => {
        value['session_id'] = `e-${run}`;
        const input = value['tool_input'] as Record<string, unknown>;
        input['file_path'] = `${project}/src/bench/file-${run}.ts`;
      },
    ),
    hook(
      'hook post-tool-use (Read, skipped)',
      'post-tool-use',
      'post-tool-use-read',
      (value, run) => {
        value['session_id'] = `r-${run}`;
      },
    ),
    // Another client's hooks: mapped onto mnemo's hook of the same meaning, then the same paths.
    hook(
      'hook --client gemini AfterTool (edit capture)',
      '--client gemini AfterTool',
      `${GEMINI}AfterTool.replace`,
      (value, run) => {
        value['session_id'] = `g-${run}`;
        const input = value['tool_input'] as Record<string, unknown>;
        input['file_path'] = `${project}/src/bench/gemini-${run}.ts`;
      },
    ),
    hook(
      'hook --client gemini BeforeAgent (prompt recall)',
      '--client gemini BeforeAgent',
      `${GEMINI}BeforeAgent`,
      (value, run) => {
        value['session_id'] = `gp-${run}`;
        // Claude Code's prompt, so the two rows differ only by the client's mapping.
        value['prompt'] = "Why does GET /orders return 500 after yesterday's migration?";
      },
    ),
  ];
}

/**
 * The Edit capture of a user with the default `engine.autoStart` on and no engine running: the hook
 * spools it for the engine it starts (hooks/post-tool-use.ts). Sampled without the engine start itself
 * (a fresh start claim makes each hook skip it; a real session pays it once, then its hooks are
 * forwarded) and with the spool emptied before each sample, as the started engine drains it.
 */
function spooledEditStep(project: string, home: string): Step {
  const edit = hookSteps(project, BIN, '').find((step) => step.name.includes('(Edit capture)'));
  if (edit === undefined) throw new Error('no Edit step');
  let sampled = false;
  return {
    ...edit,
    name: 'hook post-tool-use (Edit, autostart on: spooled)',
    env: { MNEMO_ENGINE_AUTOSTART: '1' },
    home,
    prepare: () => {
      // Each sample must have spooled its capture, or this row would time another path.
      const spool = join(home, 'spool');
      const spooled = existsSync(spool)
        ? readdirSync(spool).filter((f) => f.endsWith('.jsonl'))
        : [];
      if (sampled && spooled.length !== 1) throw new Error('the autostart Edit did not spool');
      sampled = true;
      rmSync(spool, { recursive: true, force: true });
      writeFileSync(join(home, 'engine.starting'), `${process.pid}\n`);
    },
  };
}

function steps(project: string, home: string, beforeHome: string, engine: 'down' | 'up'): Step[] {
  return [
    { name: 'node -e "" (baseline)', argv: ['-e', ''] },
    { name: 'mnemo --version (CLI start-up)', argv: [BIN, '--version'] },
    ...hookSteps(project, BIN, ''),
    ...(engine === 'down' ? [spooledEditStep(project, home)] : []),
    ...(BEFORE_BIN === undefined ? [] : hookSteps(project, BEFORE_BIN, 'before: ', beforeHome)),
  ];
}

const CPU_REPORT = fileURLToPath(new URL('cpu-report.cjs', import.meta.url));

function time(
  env: NodeJS.ProcessEnv,
  cwd: string,
  step: Step,
  run: number,
): { wall: number; cpu: number } {
  const input = step.input?.(run) ?? '';
  step.prepare?.();
  const cpuFile = join(cwd, '.bench-cpu');
  const withCpu = {
    ...env,
    ...(step.home === undefined ? {} : { MNEMO_HOME: step.home }),
    ...step.env,
    NODE_OPTIONS: `--require ${CPU_REPORT}`,
    MNEMO_BENCH_CPU_FILE: cpuFile,
  };
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, step.argv, { env: withCpu, cwd, input });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${step.name} exited ${String(result.status)}`);
  if (step.argv.includes('hook') && result.stderr.length > 0) {
    throw new Error(`${step.name} wrote to stderr: ${result.stderr.toString().slice(0, 300)}`);
  }
  return { wall: elapsed, cpu: Number(readFileSync(cpuFile, 'utf8')) };
}

function git(project: string, ...argv: string[]): void {
  const identity = { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x' };
  execFileSync('git', ['-C', project, ...argv], {
    env: { ...process.env, ...identity, GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' },
  });
}

/** A real repository of CITED_FILES files, committed (the `.git` placeholder is replaced). */
function makeRepository(project: string): void {
  rmSync(join(project, '.git'), { recursive: true, force: true });
  git(project, 'init', '-q', '-b', 'main');
  mkdirSync(join(project, 'src'), { recursive: true });
  for (let i = 0; i < CITED_FILES; i += 1) {
    const text = `export function handler${i}() { return ${i}; }\n`;
    writeFileSync(join(project, 'src', `f${i}.ts`), text);
  }
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'files');
}

type OpenStore = typeof openSqliteStore;

/** The store opener of the checkout measured as "before", so its home holds a schema it can open. */
async function beforeOpener(checkout: string): Promise<OpenStore> {
  const module = (await import(
    pathToFileURL(join(checkout, 'dist', 'store', 'sqlite', 'open-sqlite-store.js')).href
  )) as { openSqliteStore: OpenStore };
  return module.openSqliteStore;
}

async function seed(
  home: string,
  project: string,
  count: number,
  open: OpenStore = openSqliteStore,
): Promise<void> {
  const store = await open({ path: join(home, 'mnemo.db') });
  const random = seededRandom(7);
  const kinds = ['decision', 'fix', 'error', 'note'] as const;
  for (let i = 0; i < count; i += 1) {
    const content = syntheticText(random, i);
    await store.remember(
      { content, projectKey: project, kind: kinds[i % kinds.length], origin: 'user' },
      { vector: { model: `hash-v1-${HASH_DIMS}`, values: hashEmbed(content, HASH_DIMS) } },
    );
  }
  if (cited > 0) {
    makeRepository(project);
    for (let i = 0; i < cited; i += 1) {
      const file = i % CITED_FILES;
      const content = `Decision ${i}: handler${file} in src/f${file}.ts owns this route.`;
      await store.remember(
        { content, projectKey: project, kind: 'decision', origin: 'user' },
        { anchors: anchorContent(content, project, new Date()) },
      );
    }
    for (let i = 0; i < 20; i += 1) {
      writeFileSync(join(project, 'src', `f${i}.ts`), `export function renamed${i}() {}\n`);
    }
    git(project, 'commit', '-q', '-am', 'edit 20 files');
  }
  await store.close();
}

async function startEngine(env: NodeJS.ProcessEnv, home: string, bin = BIN): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--foreground', '--idle-exit', '0'], {
    env: { ...env, MNEMO_HOME: home },
    cwd: home,
    stdio: 'ignore',
  });
  const until = Date.now() + 60_000;
  for (;;) {
    const ping = await pingEngine({ home }, 1000);
    if (ping !== undefined && ping.queues.unembedded === 0 && ping.queues.spoolFiles === 0) break;
    if (Date.now() > until) throw new Error('the engine did not become idle within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return child;
}

/** Samples every step `runs` times, round-robin, after one warm-up round. */
function measure(env: NodeJS.ProcessEnv, cwd: string, all: Step[]): Row[] {
  const walls = all.map(() => [] as number[]);
  const cpus = all.map(() => [] as number[]);
  for (let run = -1; run < runs; run += 1) {
    all.forEach((step, i) => {
      const sample = time(env, cwd, step, run);
      if (run < 0) return;
      walls[i]?.push(sample.wall);
      cpus[i]?.push(sample.cpu);
    });
  }
  const baseP50 = percentile(walls[0] ?? [], 50);
  const baseP95 = percentile(walls[0] ?? [], 95);
  const baseCpu = percentile(cpus[0] ?? [], 50);
  return all.map((step, i) => {
    const p50 = percentile(walls[i] ?? [], 50);
    const p95 = percentile(walls[i] ?? [], 95);
    const cpuP50 = percentile(cpus[i] ?? [], 50);
    return {
      name: step.name,
      p50,
      p95,
      ratioP50: p50 / baseP50,
      ratioP95: p95 / baseP95,
      cpuP50,
      cpuRatioP50: cpuP50 / baseCpu,
    };
  });
}

const root = mkdtempSync(join(tmpdir(), 'mnemo-bench-hooks-'));
const results: Result[] = [];
const loadAtStart = loadavg();
const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
try {
  for (const count of memoryCounts) {
    const home = join(root, `home-${count}`);
    const project = join(root, `project-${count}`);
    mkdirSync(join(project, '.git'), { recursive: true });
    // The file the recorded Edit payload changes exists, as in a real checkout: the capture may anchor it.
    mkdirSync(join(project, 'src', 'checkout'), { recursive: true });
    writeFileSync(join(project, 'src', 'checkout', 'cart.ts'), 'export const total = 0;\n');
    // The hooks' environment as Claude Code gives it, minus anything that changes Node's own start-up.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOME: root,
      MNEMO_HOME: home,
      MNEMO_ENGINE_AUTOSTART: '0',
      MNEMO_EMBEDDING_MODEL: 'hash',
    };
    process.stderr.write(`seeding ${count} memories...\n`);
    await seed(home, project, count);
    // The checkout measured as "before" gets its own home with the same memories, written by its own
    // store code: its schema may be older than this build's.
    const beforeHome = join(root, `home-${count}-before`);
    if (args.before !== undefined) {
      mkdirSync(beforeHome, { recursive: true });
      process.stderr.write(`seeding ${count} memories for the "before" checkout...\n`);
      await seed(beforeHome, project, count, await beforeOpener(args.before));
    }
    process.stderr.write(`measuring ${count} memories, engine down...\n`);
    const down = steps(project, home, beforeHome, 'down');
    results.push({ memories: count, engine: 'down', rows: measure(env, project, down) });
    rmSync(join(home, 'engine.starting'), { force: true });
    const all = steps(project, home, beforeHome, 'up');
    const engines = [{ home, child: await startEngine(env, home) }];
    try {
      if (BEFORE_BIN !== undefined) {
        engines.push({ home: beforeHome, child: await startEngine(env, beforeHome, BEFORE_BIN) });
      }
      process.stderr.write(`measuring ${count} memories, engine up...\n`);
      results.push({ memories: count, engine: 'up', rows: measure(env, project, all) });
    } finally {
      for (const engine of engines) {
        await stopEngine({ home: engine.home }, 2000);
        engine.child.kill();
      }
    }
  }
  const loadAtEnd = loadavg();
  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
  const citing = cited > 0 ? `, plus ${cited} memories citing files of a git repository` : '';
  let out = `Hook latency, whole processes, ${runs} runs per step, round-robin${citing} (${machine})\n`;
  out += `load average ${load(loadAtStart)} at the start, ${load(loadAtEnd)} at the end\n`;
  for (const result of results) {
    out += `\n${result.memories} memories, engine ${result.engine}\n\n`;
    out += table(
      ['step', 'p50 ms', 'p95 ms', 'p50 / node', 'p95 / node', 'CPU p50 ms', 'CPU / node'],
      result.rows.map((row) => [
        row.name,
        ms(row.p50),
        ms(row.p95),
        `${row.ratioP50.toFixed(2)}×`,
        `${row.ratioP95.toFixed(2)}×`,
        ms(row.cpuP50),
        `${row.cpuRatioP50.toFixed(2)}×`,
      ]),
    );
    out += '\n';
  }
  process.stdout.write(out);
  if (args.json !== undefined) {
    const report = {
      runs,
      cited,
      machine,
      before: args.before ?? null,
      loadAtStart,
      loadAtEnd,
      results,
    };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
