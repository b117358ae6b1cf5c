/**
 * Where an install goes and what it runs. User scope: `$CLAUDE_CONFIG_DIR/settings.json` (default
 * `~/.claude/settings.json`) for hooks and `~/.claude.json` for the MCP server (reference §2.1, §4.1;
 * with `CLAUDE_CONFIG_DIR` set, Claude Code keeps `.claude.json` inside that directory, observed in
 * anthropics/claude-code#24479). Project scope: the project's `.claude/settings.json` and `.mcp.json`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';
import type { Launcher } from '../core/install/registration.js';
import { shellQuote, splitCommandLine } from '../core/install/shell-words.js';
import { resolveProjectRoot } from '../project/project-key.js';
import { launcherPath, type LauncherTarget } from './launcher.js';

/** `user`: every project, private. `project`: this repository, committed with it. */
export type InstallScope = 'user' | 'project';

/**
 * What a file is to its client: Claude Code's `settings` (hooks) and `mcp` (mcpServers); `servers`, a
 * JSON file of MCP servers (Cursor, VS Code, Claude Desktop); `cursor-hooks`, Cursor's hooks.json;
 * `gemini-settings`, Gemini CLI's settings.json (servers and hooks); `codex-config`, Codex's config.toml.
 */
export const FILE_ROLES = [
  'settings',
  'mcp',
  'servers',
  'cursor-hooks',
  'gemini-settings',
  'codex-config',
] as const;
export type FileRole = (typeof FILE_ROLES)[number];

/** One file an install touches. */
export interface TargetFile {
  path: string;
  role: FileRole;
  /** Mode for a file mnemo creates. `.claude.json` holds account state, so it stays private. */
  newMode: number;
}

/** The files of a scope. */
export interface Targets {
  scope: InstallScope;
  /** The project root, for project scope. */
  root?: string;
  files: TargetFile[];
}

/** The environment the targets depend on. */
export interface TargetEnv {
  env: NodeJS.ProcessEnv;
  userHome: string;
  cwd: string;
}

/** The files `scope` writes. Project scope finds the root with the project key function. */
export function installTargets(scope: InstallScope, where: TargetEnv): Targets {
  if (scope === 'project') {
    const root = resolveProjectRoot(where.cwd);
    return {
      scope,
      root,
      files: [
        { path: join(root, '.claude', 'settings.json'), role: 'settings', newMode: 0o644 },
        { path: join(root, '.mcp.json'), role: 'mcp', newMode: 0o644 },
      ],
    };
  }
  const configDir = nonEmpty(where.env['CLAUDE_CONFIG_DIR']);
  return {
    scope,
    files: [
      {
        path: join(configDir ?? join(where.userHome, '.claude'), 'settings.json'),
        role: 'settings',
        newMode: 0o644,
      },
      { path: join(configDir ?? where.userHome, '.claude.json'), role: 'mcp', newMode: 0o600 },
    ],
  };
}

/**
 * How the registered hooks and server start mnemo: by default the launcher under `mnemoHome`
 * (launcher.ts), one stable path whatever checkout or package runs the install, so no client file holds
 * the checkout's path. `command` (a user's `--command`) replaces it.
 */
export function resolveLauncher(options: { mnemoHome: string; command?: string }): Launcher {
  if (options.command !== undefined) {
    const [mcpCommand = '', ...mcpArgs] = splitCommandLine(options.command);
    return { hookPrefix: options.command.trim(), mcpCommand, mcpArgs };
  }
  const path = launcherPath(options.mnemoHome);
  return { hookPrefix: shellQuote(path), mcpCommand: path, mcpArgs: [] };
}

/**
 * What the launcher runs: the node running now and the package's `dist/cli/mnemo.cjs` found from
 * `argv1` (through symlinks such as npm's bin link), both absolute, so nothing depends on a client's PATH.
 * Throws INVALID_INPUT when the package's built entry point cannot be found.
 */
export function resolveLauncherTarget(options: {
  argv1: string | undefined;
  execPath: string;
}): LauncherTarget {
  return { execPath: options.execPath, main: packageMain(options.argv1) };
}

function packageMain(argv1: string | undefined): string {
  const hint =
    'Run `mnemo install` from an installed or built mnemo (`npm run build`), or pass --command <cmd>.';
  if (argv1 === undefined || !existsSync(argv1)) {
    throw new MemoryError('INVALID_INPUT', `Cannot tell where the mnemo binary is. ${hint}`);
  }
  for (let dir = dirname(realpathSync(argv1)); ; dir = dirname(dir)) {
    if (isMnemoPackage(join(dir, 'package.json'))) {
      const main = join(dir, 'dist', 'cli', 'mnemo.cjs');
      if (existsSync(main)) return main;
      throw new MemoryError('INVALID_INPUT', `${main} does not exist. ${hint}`);
    }
    if (dirname(dir) === dir) {
      throw new MemoryError('INVALID_INPUT', `No mnemo package above ${argv1}. ${hint}`);
    }
  }
}

function isMnemoPackage(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'mnemo';
  } catch {
    // No package.json here, or not ours to read: keep walking up.
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
