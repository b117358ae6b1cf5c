/**
 * Doctor checks of the Claude Code registration: every hook mnemo needs is registered in the user's or
 * the project's settings (or the mnemo plugin is enabled), its command points at files that exist, and
 * the MCP server is registered the same way. Reads the files; never writes them.
 */
import { existsSync, readFileSync } from 'node:fs';

import { HOOK_REGISTRATIONS, MCP_SERVER_NAME, PLUGIN_NAME } from '../core/install/registration.js';
import { splitCommandLine } from '../core/install/shell-words.js';
import { installTargets, type TargetEnv } from '../install/install-targets.js';
import { missingCommandPaths } from './check-clients.js';
import { fail, pass } from './doctor-check.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(path: string): Json | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    // An unreadable settings file counts as "not registered there"; the check's detail names the files.
    return undefined;
  }
}

/**
 * Absolute paths in a command line that do not exist (a moved or deleted install), following mnemo's
 * launcher to the node and bin it runs: a launcher whose checkout moved is as broken as a missing file.
 */
export function missingPaths(words: readonly string[]): string[] {
  return missingCommandPaths(words);
}

function hookCommands(settings: Json | undefined, event: string): string[] {
  const hooks = settings?.['hooks'];
  if (!isObject(hooks)) return [];
  const groups = hooks[event];
  if (!Array.isArray(groups)) return [];
  const commands: string[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group['hooks'])) continue;
    for (const handler of group['hooks']) {
      if (isObject(handler) && typeof handler['command'] === 'string') {
        commands.push(handler['command']);
      }
    }
  }
  return commands;
}

function pluginEnabled(settings: Json | undefined): boolean {
  const enabled = settings?.['enabledPlugins'];
  if (!isObject(enabled)) return false;
  return Object.entries(enabled).some(
    ([key, value]) => value === true && key.split('@')[0] === PLUGIN_NAME,
  );
}

/** The settings of both scopes, user first. */
function settingsFiles(where: TargetEnv): { path: string; json: Json | undefined }[] {
  const files = [installTargets('user', where).files];
  try {
    files.push(installTargets('project', where).files);
  } catch {
    // Outside a project there is no project scope to read.
  }
  return files
    .flat()
    .filter((file) => file.role === 'settings')
    .map((file) => ({ path: file.path, json: readJson(file.path) }));
}

/**
 * Installs made before the CommonJS executable (dist/cli/mnemo.cjs) registered the CLI's ES module;
 * those hooks still work, through the same bundles, but each pays for Node's ES-module loader.
 */
const OLDER_ENTRY = /(?:^|[/\\])dist[/\\]cli[/\\]main\.js$/;

/**
 * Every hook registered and runnable. `otherClients` names the other clients mnemo is installed for:
 * with none of Claude Code's hooks registered, that is a choice, not a fault.
 */
export function checkHooks(where: TargetEnv, otherClients: readonly string[] = []) {
  const files = settingsFiles(where);
  if (files.some((file) => pluginEnabled(file.json))) {
    return pass(`the ${PLUGIN_NAME} plugin is enabled; its hooks come with it`);
  }
  const missing: string[] = [];
  const broken: string[] = [];
  let older = false;
  for (const row of HOOK_REGISTRATIONS) {
    const suffix = ` hook ${row.subcommand}`;
    const commands = files.flatMap((file) => hookCommands(file.json, row.event));
    const ours = commands.find((command) => command.trimEnd().endsWith(suffix));
    if (ours === undefined) {
      missing.push(`${row.event} (mnemo hook ${row.subcommand})`);
      continue;
    }
    const launcher = splitCommandLine(ours.trimEnd().slice(0, -suffix.length));
    if (launcher.some((word) => OLDER_ENTRY.test(word))) older = true;
    const gone = missingPaths(launcher);
    if (gone.length > 0) broken.push(`${row.event} runs ${gone.join(', ')}, which does not exist`);
  }
  const where_ = files.map((file) => file.path).join(', ');
  if (missing.length === HOOK_REGISTRATIONS.length && otherClients.length > 0) {
    return pass(notForClaudeCode(otherClients));
  }
  if (missing.length > 0) {
    return fail(
      `not registered in ${where_}: ${missing.join('; ')}`,
      'Run `mnemo install` (or `mnemo install --scope project` inside the project).',
    );
  }
  if (broken.length > 0) {
    return fail(
      broken.join('; '),
      'Run `mnemo install` again from the mnemo you use now: it points the hooks at this binary.',
    );
  }
  const registered = `${HOOK_REGISTRATIONS.length} hooks registered, binary present`;
  return older
    ? pass(
        `${registered}; they run dist/cli/main.js, the entry point of an earlier install, which starts ` +
          'each hook more slowly: run `mnemo install` again to register dist/cli/mnemo.cjs',
        { olderEntryPoint: true },
      )
    : pass(registered);
}

function mcpEntry(json: Json | undefined): Json | undefined {
  const servers = json?.['mcpServers'];
  if (!isObject(servers)) return undefined;
  const entry = servers[MCP_SERVER_NAME];
  return isObject(entry) ? entry : undefined;
}

/** What the Claude Code checks say when mnemo is installed for other clients only. */
function notForClaudeCode(otherClients: readonly string[]): string {
  return `Claude Code: not registered; mnemo is installed for ${otherClients.join(', ')} (see clients)`;
}

/** The MCP server registered and runnable (see {@link checkHooks} for `otherClients`). */
export function checkMcp(where: TargetEnv, otherClients: readonly string[] = []) {
  const files = [installTargets('user', where).files];
  try {
    files.push(installTargets('project', where).files);
  } catch {
    // Outside a project there is no project scope to read.
  }
  const mcpFiles = files.flat().filter((file) => file.role === 'mcp');
  if (settingsFiles(where).some((file) => pluginEnabled(file.json))) {
    return pass(`the ${PLUGIN_NAME} plugin is enabled; its MCP server comes with it`);
  }
  for (const file of mcpFiles) {
    const entry = mcpEntry(readJson(file.path));
    if (entry === undefined) continue;
    const command = typeof entry['command'] === 'string' ? entry['command'] : '';
    const args = Array.isArray(entry['args'])
      ? entry['args'].filter((a): a is string => typeof a === 'string')
      : [];
    const gone = missingPaths([command, ...args]);
    if (gone.length > 0) {
      return fail(
        `the MCP server in ${file.path} runs ${gone.join(', ')}, which does not exist`,
        'Run `mnemo install` again from the mnemo you use now.',
      );
    }
    return pass(`registered in ${file.path}`);
  }
  if (otherClients.length > 0) return pass(notForClaudeCode(otherClients));
  return fail(
    `no "${MCP_SERVER_NAME}" server in ${mcpFiles.map((file) => file.path).join(', ')}`,
    'Run `mnemo install` (or `mnemo install --scope project` inside the project).',
  );
}
