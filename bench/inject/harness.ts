/**
 * The I/O of the injection benchmark: scratch homes, one real git repository per project, memories
 * written through the write service on the CLI channel (what `mnemo remember` runs, in-process because
 * hundreds of processes would only measure start-up), the built hook binary fed payloads on stdin, and
 * a resident engine (`mnemo serve --foreground`) started for a home and stopped by its own pid.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { type App, openApp } from '../../src/app/open-app.js';
import type { Memory } from '../../src/core/memory.js';
import { pingEngine } from '../../src/engine/engine-client.js';
import { resolveProjectKey } from '../../src/project/project-key.js';
import { writeMemory } from '../../src/write/write-memory.js';
import { writeDepsFrom } from '../../src/write/write-policy.js';
import type { ProjectMemory } from './corpus.js';

/** The built executable, as Claude Code runs it. */
export const MNEMO_BIN = fileURLToPath(new URL('../../dist/cli/mnemo.cjs', import.meta.url));

export interface BenchHome {
  home: string;
  /** The environment every process of this home runs with. */
  env: NodeJS.ProcessEnv;
}

/**
 * A home under `root`: `$MNEMO_HOME` and a `$HOME` of its own (nothing reaches the real `~/.mnemo`), no
 * engine started behind the benchmark's back, no web viewer with the engine, and the hook deadline
 * given (so a loaded machine does not turn answers into silence; the figure is reported).
 */
export function benchHome(
  root: string,
  name: string,
  deadlineMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): BenchHome {
  const home = join(root, name, 'mnemo-home');
  const userHome = join(root, name, 'user');
  mkdirSync(userHome, { recursive: true });
  return {
    home,
    env: {
      PATH: process.env['PATH'],
      HOME: userHome,
      MNEMO_HOME: home,
      MNEMO_ENGINE_AUTOSTART: '0',
      MNEMO_UI_WITH_ENGINE: '0',
      MNEMO_HOOK_DEADLINE_MS: String(deadlineMs),
      ...extraEnv,
    },
  };
}

// Isolated from the machine's git configuration, as test/helpers/git-repo.ts does.
const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'],
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

/**
 * A real repository at `dir` with one commit; with `remote`, an `origin` of that URL (so the project is
 * keyed by the remote, as a clone is). Returns its canonical path and the project key mnemo derives.
 */
export function gitRepo(dir: string, remote?: string): { dir: string; key: string } {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], { env: GIT_ENV, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'initial');
  if (remote !== undefined) git('remote', 'add', 'origin', remote);
  const real = realpathSync(dir);
  return { dir: real, key: resolveProjectKey(real) };
}

/** Opens the home's app in this process (the store the hooks read). */
export function openHomeApp(home: BenchHome): Promise<App> {
  return openApp({ env: { MNEMO_HOME: home.home, HOME: home.env['HOME'] ?? '' } });
}

export interface LoadReport {
  /** Memory id of each turn (a near-duplicate merged into an earlier memory shares its id). */
  memoryOf: Map<string, string>;
  /** Every memory written or merged into, by id, as stored (redacted text, kind, project). */
  memories: Map<string, Memory>;
  stored: number;
  merged: number;
  rejected: number;
}

/**
 * Writes each memory as `mnemo remember --kind <kind> <text>` would from the repository (CLI channel,
 * origin user, the novelty gate on), dated at its `at`. Turn ids map to the memory that holds them.
 * `sessions`: each write also names its dataset session, so the store derives each memory's context
 * from its neighbours in that session, as it does for the captures of one coding session.
 */
export async function loadMemories(
  app: App,
  repoDir: string,
  memories: readonly ProjectMemory[],
  sessions = false,
): Promise<LoadReport> {
  const deps = writeDepsFrom(app);
  const projectKey = resolveProjectKey(repoDir);
  const report: LoadReport = {
    memoryOf: new Map(),
    memories: new Map(),
    stored: 0,
    merged: 0,
    rejected: 0,
  };
  for (const memory of memories) {
    const outcome = await writeMemory(deps, {
      envelope: { channel: 'cli' },
      originTool: 'cli',
      content: memory.text,
      projectKey,
      visibility: 'project',
      kind: memory.kind,
      tags: [],
      workingDir: repoDir,
      capturedAt: new Date(memory.at).toISOString(),
      ...(sessions && memory.sessionId !== undefined ? { sessionId: memory.sessionId } : {}),
    });
    if (outcome.decision === 'reject') {
      report.rejected += 1;
      continue;
    }
    if (outcome.decision === 'merge') report.merged += 1;
    else report.stored += 1;
    report.memoryOf.set(memory.turnId, outcome.memory.id);
    report.memories.set(outcome.memory.id, outcome.memory);
  }
  return report;
}

export interface HookRun {
  code: number | null;
  stdout: string;
  ms: number;
}

/** `node dist/cli/mnemo.cjs hook <event>` in `cwd`, the payload as JSON on stdin. */
export function runHook(
  home: BenchHome,
  cwd: string,
  event: 'user-prompt-submit' | 'session-start',
  payload: Record<string, unknown>,
): HookRun {
  const began = performance.now();
  const child = spawnSync(process.execPath, [MNEMO_BIN, 'hook', event], {
    cwd,
    env: home.env,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return { code: child.status, stdout: child.stdout, ms: performance.now() - began };
}

export interface RunningEngine {
  pid: number;
  /** Hooks the engine answered itself (not late) since it started. */
  injections(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/**
 * Starts `mnemo serve --foreground --idle-exit 0` for the home and waits until it listens and has
 * embedded every memory (nothing queued), as an engine that has been running a while has.
 */
export async function startEngine(
  home: BenchHome,
  cwd: string,
  progress: (line: string) => void,
  timeoutMs = 600_000,
): Promise<RunningEngine> {
  const child: ChildProcess = spawn(
    process.execPath,
    [MNEMO_BIN, 'serve', '--foreground', '--idle-exit', '0'],
    { cwd, env: home.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const pid = child.pid ?? -1;
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!exited) child.kill('SIGKILL');
    }, 10_000);
    await gone;
    clearTimeout(timer);
  };
  const until = Date.now() + timeoutMs;
  let lastReport = 0;
  for (;;) {
    if (exited) throw new Error(`the engine exited early: ${out.slice(-2000)}`);
    if (Date.now() > until) {
      await stop();
      throw new Error('the engine did not finish embedding in time');
    }
    const ping = out.includes('mnemo engine running')
      ? await pingEngine({ home: home.home }, 2000)
      : undefined;
    if (ping !== undefined && ping.queues.unembedded === 0 && ping.queues.spoolFiles === 0) break;
    if (ping !== undefined && Date.now() - lastReport > 10_000) {
      progress(`  engine ${pid}: ${ping.queues.unembedded} memories left to embed`);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid,
    injections: async () => (await pingEngine({ home: home.home }, 5000))?.injections,
    stop,
  };
}
