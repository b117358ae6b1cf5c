import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { useTempDirs } from './temp-dir.js';

/** The built executable; e2e tests exercise what ships, so `npm test` builds first. */
export const MNEMO_BIN = fileURLToPath(new URL('../../dist/cli/mnemo.cjs', import.meta.url));
/** The CLI's ES-module entry, which installs made before the executable above registered. */
export const MNEMO_MAIN_MODULE = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** The repository root, where node_modules lives (for child scripts that need a package). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface TestHome {
  /** `$MNEMO_HOME`. */
  home: string;
  /** `$HOME`, so nothing falls back to the real `~/.mnemo`. */
  userHome: string;
  /** A plain directory used as the working directory (its project key is itself). */
  project: string;
  dbPath: string;
  env: NodeJS.ProcessEnv;
  /** Runs the built binary with this home. */
  run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
}

export interface RunOptions {
  input?: string | Uint8Array;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Spawns `command args…`, feeds `input` on stdin and collects its output. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { input?: string | Uint8Array; env: NodeJS.ProcessEnv; cwd: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    // A child that exits without reading its stdin (a hook that fails open early) is not an error.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.end(options.input ?? '');
  });
}

/** Spawns `node dist/cli/mnemo.cjs …` and collects its output. */
export function runMnemo(
  args: readonly string[],
  options: RunOptions & { env: NodeJS.ProcessEnv; cwd: string },
): Promise<RunResult> {
  if (!existsSync(MNEMO_BIN)) {
    throw new Error(`${MNEMO_BIN} is missing: run \`npm run build\` before the e2e tests.`);
  }
  return runProcess(process.execPath, [MNEMO_BIN, ...args], options);
}

/** Registers temp-dir cleanup for the file and returns a factory of isolated homes. */
export function useTestHomes(): () => TestHome {
  const tempDir = useTempDirs();
  return () => {
    const root = tempDir('mnemo-e2e-');
    const home = join(root, 'mnemo-home');
    const userHome = join(root, 'user');
    const project = join(root, 'project');
    for (const dir of [userHome, project]) mkdirSync(dir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: userHome,
      MNEMO_HOME: home,
      // Keep lock tests quick; the locked-store test sets its own value.
      MNEMO_BUSY_TIMEOUT_MS: '2000',
      // No background engines outlive a test; the engine and spool tests opt back in.
      MNEMO_ENGINE_AUTOSTART: '0',
      // An engine started by a test serves no web viewer unless the test asks for one.
      MNEMO_UI_WITH_ENGINE: '0',
    };
    return {
      home,
      userHome,
      project: realpathSync(project),
      dbPath: join(home, 'mnemo.db'),
      env,
      run: (args, options = {}) =>
        runMnemo(args, {
          input: options.input,
          env: { ...env, ...options.env },
          cwd: options.cwd ?? project,
        }),
    };
  };
}

/** The store's rows as the export sees them: the oracle for "nothing changed". */
export async function exportRows(home: TestHome): Promise<string> {
  const result = await home.run(['export']);
  if (result.code !== 0) throw new Error(`export failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Ids printed by `remember` ("Remembered <id>" / "Already remembered as <id>"). */
export function idFrom(stdout: string): string {
  const match = /([0-9A-HJKMNP-TV-Z]{26})\s*$/.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`no id in: ${stdout}`);
  return match[1];
}
