/**
 * Runs `git` for the anchor checks: asynchronously, with a timeout and an output cap, in the project's
 * own directory, with an environment that cannot point it at another repository (`GIT_DIR` and friends
 * removed) and cannot make it take the index lock or prompt (`GIT_OPTIONAL_LOCKS=0`,
 * `GIT_TERMINAL_PROMPT=0`). A missing `git`, a failure or a timeout is a result, never a throw: the
 * caller then knows less, and says so.
 */
import { execFile } from 'node:child_process';

/** Variables that would make `git` read another repository than the one in `cwd`. */
const REPOSITORY_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

export type GitResult =
  | { readonly ok: true; readonly stdout: string }
  | {
      readonly ok: false;
      readonly reason: 'no_git' | 'failed' | 'timeout';
      readonly detail: string;
    };

export interface GitRunOptions {
  readonly timeoutMs: number;
  /** Largest stdout accepted, in bytes (default 16 MiB). */
  readonly maxBytes?: number;
}

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

/** Runs `git -C <cwd> <args…>` and resolves with its stdout or why there is none. */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: GitRunOptions,
): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', cwd, '-c', 'core.quotePath=false', '--no-pager', ...args],
      {
        env: gitEnv(),
        timeout: options.timeoutMs,
        maxBuffer: options.maxBytes ?? 16 * 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ ok: true, stdout });
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') resolve({ ok: false, reason: 'no_git', detail: 'git not found' });
        else if (error.killed) resolve({ ok: false, reason: 'timeout', detail: args[0] ?? '' });
        else resolve({ ok: false, reason: 'failed', detail: stderr.slice(0, 300).trim() });
      },
    );
  });
}
