/**
 * Where each client other than Claude Code keeps the files `mnemo install --client` writes, per scope, as
 * each one documents them (docs/clients.md lists them with their sources):
 *
 * - Cursor: `~/.cursor/mcp.json` and `~/.cursor/hooks.json`; project `.cursor/mcp.json`, `.cursor/hooks.json`.
 * - VS Code: the user profile's `mcp.json` (`Code/User/mcp.json` under the OS's config directory);
 *   project `.vscode/mcp.json`. Both JSON with comments.
 * - Codex: `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`); user scope only.
 * - Gemini CLI: `~/.gemini/settings.json`; project `.gemini/settings.json`. JSON with comments.
 * - Claude Desktop: `claude_desktop_config.json` in its per-OS application-support directory; user only.
 */
import { join } from 'node:path';

import { MemoryError } from '../core/errors.js';
import { CLIENT_NAMES, type ClientId } from '../core/install/clients.js';
import { resolveProjectRoot } from '../project/project-key.js';
import {
  type InstallScope,
  installTargets,
  type TargetEnv,
  type TargetFile,
  type Targets,
} from './install-targets.js';

/** The environment, with the platform the per-OS paths depend on. */
export interface ClientTargetEnv extends TargetEnv {
  platform?: NodeJS.Platform;
}

/** The scopes a client defines. */
export function clientScopes(client: ClientId): readonly InstallScope[] {
  return client === 'codex' || client === 'claude-desktop' ? ['user'] : ['user', 'project'];
}

/** The files `client` keeps in `scope`. Throws INVALID_INPUT for a scope the client does not have. */
export function clientTargets(
  client: ClientId,
  scope: InstallScope,
  where: ClientTargetEnv,
): Targets {
  if (client === 'claude-code') return installTargets(scope, where);
  if (!clientScopes(client).includes(scope)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${CLIENT_NAMES[client]} has no ${scope} scope: it reads its MCP servers from one user file. ` +
        'Run the command without --scope.',
    );
  }
  if (scope === 'project') {
    const root = resolveProjectRoot(where.cwd);
    return { scope, root, files: projectFiles(client, root) };
  }
  return { scope, files: userFiles(client, where) };
}

function projectFiles(client: ClientId, root: string): TargetFile[] {
  if (client === 'cursor') {
    return [
      { path: join(root, '.cursor', 'mcp.json'), role: 'servers', newMode: 0o644 },
      { path: join(root, '.cursor', 'hooks.json'), role: 'cursor-hooks', newMode: 0o644 },
    ];
  }
  if (client === 'vscode') {
    return [{ path: join(root, '.vscode', 'mcp.json'), role: 'servers', newMode: 0o644 }];
  }
  return [
    { path: join(root, '.gemini', 'settings.json'), role: 'gemini-settings', newMode: 0o644 },
  ];
}

function userFiles(client: ClientId, where: ClientTargetEnv): TargetFile[] {
  const home = where.userHome;
  switch (client) {
    case 'cursor':
      return [
        { path: join(home, '.cursor', 'mcp.json'), role: 'servers', newMode: 0o644 },
        { path: join(home, '.cursor', 'hooks.json'), role: 'cursor-hooks', newMode: 0o644 },
      ];
    case 'vscode':
      return [
        {
          path: join(appConfigDir(where), 'Code', 'User', 'mcp.json'),
          role: 'servers',
          newMode: 0o644,
        },
      ];
    case 'codex': {
      const codexHome = nonEmpty(where.env['CODEX_HOME']) ?? join(home, '.codex');
      // Codex keeps credentials beside it; a file mnemo creates there stays private.
      return [{ path: join(codexHome, 'config.toml'), role: 'codex-config', newMode: 0o600 }];
    }
    case 'gemini':
      return [
        { path: join(home, '.gemini', 'settings.json'), role: 'gemini-settings', newMode: 0o644 },
      ];
    default:
      return [
        {
          path: join(appConfigDir(where), 'Claude', 'claude_desktop_config.json'),
          role: 'servers',
          newMode: 0o600,
        },
      ];
  }
}

/**
 * The per-user application config directory: `~/Library/Application Support` on macOS, `%APPDATA%` on
 * Windows, `$XDG_CONFIG_HOME` (default `~/.config`) elsewhere.
 */
export function appConfigDir(where: ClientTargetEnv): string {
  const platform = where.platform ?? process.platform;
  if (platform === 'darwin') return join(where.userHome, 'Library', 'Application Support');
  if (platform === 'win32') {
    return nonEmpty(where.env['APPDATA']) ?? join(where.userHome, 'AppData', 'Roaming');
  }
  return nonEmpty(where.env['XDG_CONFIG_HOME']) ?? join(where.userHome, '.config');
}

/** Whether `client`'s JSON files may hold comments (and keep them). */
export function allowsComments(client: ClientId): boolean {
  return client === 'vscode' || client === 'gemini';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
