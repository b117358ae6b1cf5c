import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect } from 'vitest';

import { splitCommandLine } from '../../src/core/install/shell-words.js';
import type { RunResult, TestHome } from './mnemo-bin.js';

/** The argv of each `mnemo hook <event>` as `mnemo install` registered it, keyed by subcommand. */
export type RegisteredHooks = Record<string, readonly string[]>;

interface SettingsHooks {
  hooks?: Record<string, { hooks?: { command?: string }[] }[]>;
}

/**
 * Runs `mnemo install` in the home and reads back the hook commands it wrote into the user's Claude Code
 * settings, so a test runs exactly what Claude Code would run, whatever launcher the install chose.
 */
export async function installHooks(home: TestHome): Promise<RegisteredHooks> {
  const result = await home.run(['install']);
  expect(result.code, result.stderr).toBe(0);
  const settings = JSON.parse(
    readFileSync(join(home.userHome, '.claude', 'settings.json'), 'utf8'),
  ) as SettingsHooks;
  const out: Record<string, readonly string[]> = {};
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const group of groups) {
      for (const handler of group.hooks ?? []) {
        const words = splitCommandLine(handler.command ?? '');
        const at = words.lastIndexOf('hook');
        const event = words[at + 1];
        if (at > 0 && event !== undefined) out[event] = words;
      }
    }
  }
  return out;
}

/** A registered hook process started with its payload on stdin. */
export interface HookProcess {
  child: ChildProcess;
  /** Resolves once it exited: its exit code (null when killed), signal, and output. */
  done: Promise<RunResult & { signal: NodeJS.Signals | null }>;
}

/** Starts the registered command of `event` with `payload` on stdin, in the home's project. */
export function startRegisteredHook(
  home: TestHome,
  hooks: RegisteredHooks,
  event: string,
  payload: Record<string, unknown> | string | Uint8Array,
  env: NodeJS.ProcessEnv = {},
): HookProcess {
  const argv = hooks[event];
  if (argv === undefined || argv.length === 0)
    throw new Error(`mnemo install registered no ${event} hook`);
  const [command, ...args] = argv as [string, ...string[]];
  const child = spawn(command, args, {
    cwd: home.project,
    env: { ...home.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  const done = new Promise<RunResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
  // A hook killed before it read its payload closes stdin under us: that is the test's doing, not a fault.
  child.stdin?.on('error', () => undefined);
  const input =
    typeof payload === 'object' && !(payload instanceof Uint8Array)
      ? JSON.stringify(payload)
      : payload;
  child.stdin?.end(input);
  return { child, done };
}

/** Runs the registered hook of `event` to its end. */
export function runRegisteredHook(
  home: TestHome,
  hooks: RegisteredHooks,
  event: string,
  payload: Record<string, unknown> | string | Uint8Array,
  env: NodeJS.ProcessEnv = {},
): Promise<RunResult & { signal: NodeJS.Signals | null }> {
  return startRegisteredHook(home, hooks, event, payload, env).done;
}
