import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach } from 'vitest';

import { MNEMO_BIN, type TestHome } from './mnemo-bin.js';

/** A `mnemo serve --foreground` child of the test. */
export interface EngineProcess {
  child: ChildProcess;
  pid: number;
  /** Everything printed so far. */
  stdout(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string | null>;
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function pidOfLock(home: string): number | undefined {
  const file = join(home, 'engine.lock');
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid?: number }).pid;
  } catch {
    return undefined;
  }
}

/**
 * Starts engines for the current test and kills, after it, every engine it started and every engine a
 * test home's lock names (engines started in the background by a hook), so no process outlives a test.
 */
export function useEngines(): {
  start(home: TestHome, args?: readonly string[], env?: NodeJS.ProcessEnv): Promise<EngineProcess>;
  spawnServe(home: TestHome, args?: readonly string[], env?: NodeJS.ProcessEnv): EngineProcess;
  watch(home: TestHome): void;
} {
  const children: ChildProcess[] = [];
  const homes: string[] = [];
  afterEach(() => {
    const pids = new Set<number>();
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        pids.add(child.pid);
      }
    }
    for (const home of homes.splice(0)) {
      const pid = pidOfLock(home);
      if (pid !== undefined && pid !== process.pid) pids.add(pid);
    }
    // What an engine started (a daily backup in progress) dies with it, instead of writing into a home
    // being removed: an engine this test spawned shares the test's process group, so its children are
    // found by parent pid; they are read before any kill, while they are still the engine's.
    for (const pid of [...pids]) for (const child of descendantsOf(pid)) pids.add(child);
    for (const pid of pids) {
      // A detached engine (started by a hook or doctor) leads its own process group, which holds what it
      // started too: kill the group, then the pid for an attached engine.
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // No such group (an engine this test spawned), or already gone.
        }
      }
    }
  });

  const spawnServe = (
    home: TestHome,
    args: readonly string[] = [],
    env: NodeJS.ProcessEnv = {},
  ): EngineProcess => {
    homes.push(home.home);
    const child = spawn(process.execPath, [MNEMO_BIN, 'serve', '--foreground', ...args], {
      cwd: home.project,
      env: { ...home.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.resume();
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    return { child, pid: child.pid ?? -1, stdout: () => out, exited };
  };

  return {
    spawnServe,
    async start(home, args = [], env = {}) {
      const engine = spawnServe(home, args, env);
      await Promise.race([
        waitFor('the engine to listen', () => engine.stdout().includes('mnemo engine running')),
        engine.exited.then((code) => {
          throw new Error(`engine exited early (${String(code)}): ${engine.stdout()}`);
        }),
      ]);
      return engine;
    },
    watch(home) {
      homes.push(home.home);
    },
  };
}

/** The pids of `pid`'s children and theirs (Linux /proc; none where /proc cannot be read). */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // Exited while listed.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parentOf) {
      if (ppid === parent && !out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}
