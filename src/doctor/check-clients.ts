/**
 * Doctor check of the other clients mnemo is installed for (Cursor, VS Code, Codex, Gemini CLI, Claude
 * Desktop): each of their files that the install manifest records, or that holds mnemo's entry, must be
 * present, parse as the client reads it, and run a command that exists; a launcher must still point at a
 * mnemo that exists. Reads the files; never writes them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

import { isMemoryError } from '../core/errors.js';
import { CLIENT_IDS, CLIENT_NAMES, type ClientId } from '../core/install/clients.js';
import { MCP_SERVER_NAME } from '../core/install/registration.js';
import { splitCommandLine } from '../core/install/shell-words.js';
import { definesMnemoServer } from '../core/install/toml-table.js';
import {
  allowsComments,
  clientScopes,
  type ClientTargetEnv,
  clientTargets,
} from '../install/client-targets.js';
import { realTarget } from '../install/file-ops.js';
import { readManifest } from '../install/install-manifest.js';
import type { InstallScope, TargetFile } from '../install/install-targets.js';
import { isObject, JsonText } from '../install/json-text.js';
import { readLauncherTarget } from '../install/launcher.js';
import { fail, pass } from './doctor-check.js';

/** One client file that holds (or should hold) mnemo's entries, and what is wrong with it. */
export interface ClientFinding {
  readonly client: ClientId;
  readonly scope: InstallScope;
  readonly path: string;
  /** Undefined: the file is fine. */
  readonly problem?: string;
  /** What the file's entries run: the launcher (or command) and, for a launcher, the mnemo it starts. */
  readonly runs?: string;
}

/** The absolute paths a command line needs that do not exist, following mnemo's launcher to its target. */
export function missingCommandPaths(words: readonly string[]): string[] {
  const gone: string[] = [];
  for (const word of words) {
    if (!isAbsolute(word)) continue;
    if (!existsSync(word)) {
      gone.push(word);
      continue;
    }
    const target = readLauncherTarget(word);
    if (target === undefined) continue;
    for (const path of [target.execPath, target.main]) if (!existsSync(path)) gone.push(path);
  }
  return gone;
}

/** What a command line runs, for the report: the launcher's target when it is one. */
function describeRuns(words: readonly string[]): string {
  const program = words[0] ?? '';
  const target = isAbsolute(program) ? readLauncherTarget(program) : undefined;
  return target === undefined ? words.join(' ') : `${program} → ${target.main}`;
}

/** The command lines of mnemo's entries in one file's text (empty: mnemo has none there). */
function mnemoCommands(role: TargetFile['role'], text: string, value: unknown): string[][] {
  if (role === 'codex-config') {
    if (!definesMnemoServer(text)) return [];
    const table = /^\[mcp_servers\.mnemo\]\r?\n(?:[^[\r\n][^\r\n]*\r?\n)*/m.exec(text)?.[0] ?? '';
    const command = /^command\s*=\s*("(?:[^"\\]|\\.)*")/m.exec(table)?.[1];
    const args = /^args\s*=\s*(\[[^\]\r\n]*\])/m.exec(table)?.[1];
    try {
      const words = [
        JSON.parse(command ?? '""') as string,
        ...(JSON.parse(args ?? '[]') as string[]),
      ];
      return [words];
    } catch {
      return [['']];
    }
  }
  if (!isObject(value)) return [];
  const lines: string[][] = [];
  if (role === 'cursor-hooks' || role === 'gemini-settings') {
    const hooks = value['hooks'];
    const entries: unknown[] = isObject(hooks) ? Object.values(hooks).flat() : [];
    // Cursor lists handlers per event; Gemini CLI lists groups, each with its `hooks`.
    const handlers = entries.flatMap((h): unknown[] =>
      isObject(h) && Array.isArray(h['hooks']) ? (h['hooks'] as unknown[]) : [h],
    );
    for (const handler of handlers) {
      const command = isObject(handler) ? handler['command'] : undefined;
      if (typeof command === 'string' && /\shook\s+--client\s+\S+\s+\S+\s*$/.test(command)) {
        lines.push(splitCommandLine(command).slice(0, -4));
      }
    }
  }
  if (role !== 'cursor-hooks') {
    for (const container of ['mcpServers', 'servers']) {
      const servers = value[container];
      const entry = isObject(servers) ? servers[MCP_SERVER_NAME] : undefined;
      if (!isObject(entry)) continue;
      const args = Array.isArray(entry['args'])
        ? entry['args'].filter((a): a is string => typeof a === 'string')
        : [];
      lines.push([typeof entry['command'] === 'string' ? entry['command'] : '', ...args]);
    }
  }
  return lines;
}

function inspect(
  client: ClientId,
  scope: InstallScope,
  target: TargetFile,
  recorded: boolean,
): ClientFinding | undefined {
  const path = realTarget(target.path);
  const at = { client, scope, path };
  if (!existsSync(path)) {
    return recorded ? { ...at, problem: 'recorded as installed, but the file is gone' } : undefined;
  }
  const text = readFileSync(path, 'utf8');
  let value: unknown;
  if (target.role !== 'codex-config') {
    try {
      value = JsonText.parse(text, path, { comments: allowsComments(client) }).value();
    } catch (error) {
      if (!isMemoryError(error, 'INVALID_INPUT')) throw error;
      return { ...at, problem: error.message };
    }
  }
  const commands = mnemoCommands(target.role, text, value);
  if (commands.length === 0) {
    return recorded ? { ...at, problem: 'mnemo’s entries are no longer in the file' } : undefined;
  }
  const gone = [...new Set(commands.flatMap((words) => missingCommandPaths(words)))];
  const runs = describeRuns(commands[0] ?? []);
  if (gone.length > 0)
    return { ...at, runs, problem: `runs ${gone.join(', ')}, which does not exist` };
  return { ...at, runs };
}

/** Every client file mnemo is installed in (manifest or entries), user scope and this project's. */
export function findClientInstalls(
  where: ClientTargetEnv & { mnemoHome: string },
): ClientFinding[] {
  const manifest = readManifest(where.mnemoHome);
  const findings: ClientFinding[] = [];
  for (const client of CLIENT_IDS) {
    if (client === 'claude-code') continue;
    for (const scope of clientScopes(client)) {
      let files: TargetFile[];
      try {
        files = clientTargets(client, scope, where).files;
      } catch (error) {
        // Outside a project there is no project scope to read.
        if (isMemoryError(error, 'INVALID_INPUT')) continue;
        throw error;
      }
      for (const target of files) {
        const record = manifest.files[realTarget(target.path)];
        const finding = inspect(client, scope, target, record?.client === client);
        if (finding !== undefined) findings.push(finding);
      }
    }
  }
  return findings;
}

/** The doctor's `clients` check over {@link findClientInstalls}. */
export function checkClients(findings: readonly ClientFinding[]) {
  if (findings.length === 0) {
    return pass(
      'no other client registered (Cursor, VS Code, Codex, Gemini CLI, Claude Desktop: ' +
        '`mnemo install --client <id>`)',
    );
  }
  const label = (f: ClientFinding) => `${CLIENT_NAMES[f.client]} (${f.scope}) ${f.path}`;
  const data = {
    clients: findings.map((f) => ({
      client: f.client,
      scope: f.scope,
      path: f.path,
      ok: f.problem === undefined,
      ...(f.runs === undefined ? {} : { runs: f.runs }),
      ...(f.problem === undefined ? {} : { problem: f.problem }),
    })),
  };
  const broken = findings.filter((f) => f.problem !== undefined);
  if (broken.length > 0) {
    const clients = [...new Set(broken.map((f) => f.client))];
    return fail(
      broken.map((f) => `${label(f)}: ${f.problem ?? ''}`).join('; '),
      `Fix the file if it does not parse; otherwise run ${clients
        .map((c) => `\`mnemo install --client ${c}\``)
        .join(', ')} again from the mnemo you use now (or \`mnemo uninstall --client <id>\`).`,
      data,
    );
  }
  return pass(findings.map((f) => `${label(f)} runs ${f.runs ?? '?'}`).join('; '), data);
}
