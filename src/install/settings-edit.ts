/**
 * Adding and removing mnemo's entries in one Claude Code JSON file (a settings file's `hooks`, an MCP
 * file's `mcpServers`). Every other key, hook and server is left as it is. What was added is returned as
 * records so the uninstaller removes exactly that, and puts back anything an entry replaced.
 *
 * mnemo's hook handlers are recognised by their command: one the manifest recorded, or a `command`
 * handler ending in `hook <subcommand>` that mentions `mnemo` (so a lost manifest, or a binary that
 * moved, still leaves nothing behind).
 */
import type { JSONPath } from 'jsonc-parser';

import { MemoryError } from '../core/errors.js';
import {
  HOOK_REGISTRATIONS,
  type HookEntry,
  MCP_SERVER_NAME,
  type McpServerEntry,
  type Registration,
} from '../core/install/registration.js';
import { isObject, jsonEqual, type JsonText } from './json-text.js';

/**
 * One entry mnemo owns in a file. A hook group mnemo replaced was mnemo's already (that is how it was
 * found), so only the MCP entry keeps a `previous`: a foreign server that happened to be named `mnemo`.
 */
export type EntryRecord =
  | { kind: 'hook'; event: string; subcommand: string; command: string }
  | { kind: 'mcp'; name: string; value: unknown; previous?: unknown; container?: string }
  | { kind: 'toml'; table: string; text: string };

/** A hook group to own on `event` (Claude Code's shape, which Gemini CLI shares). */
export interface GroupHookEntry {
  readonly event: string;
  readonly subcommand: string;
  readonly group: { matcher?: string; hooks: readonly { type: 'command'; command: string }[] };
}

/** The events (and subcommands) whose mnemo handlers a file may hold: Claude Code's by default. */
export type HookRows = readonly { readonly event: string; readonly subcommand: string }[];

/** What one file should hold. */
export interface DesiredEntries {
  hooks?: readonly (HookEntry | GroupHookEntry)[];
  /** The server entry, under `mcpContainer` (default `mcpServers`). */
  mcpServer?: McpServerEntry | Record<string, unknown>;
  mcpContainer?: string;
}

/** The outcome of an install edit: the entries owned and the containers created (to drop when empty). */
export interface InstallEdit {
  entries: EntryRecord[];
  created: JSONPath[];
}

/**
 * Brings `doc` to hold `desired`, changing nothing that is already right. `prior` are the records of an
 * earlier install into this file; what they replaced stays the thing to put back.
 * Throws INVALID_INPUT when `hooks`/`mcpServers` exist with the wrong shape (nothing is written).
 */
export function addEntries(
  doc: JsonText,
  desired: DesiredEntries,
  prior: readonly EntryRecord[],
  label: string,
): InstallEdit {
  const entries: EntryRecord[] = [];
  const created: JSONPath[] = [];
  const known = knownCommands(prior, desired);
  for (const entry of desired.hooks ?? []) {
    const path = ['hooks', entry.event];
    const groups = hookGroups(doc, entry.event, label);
    if (doc.get(['hooks']) === undefined && !created.some((p) => p[0] === 'hooks')) {
      created.push(['hooks']);
    }
    const command = entry.group.hooks[0]?.command ?? '';
    entries.push({ kind: 'hook', event: entry.event, subcommand: entry.subcommand, command });
    if (groups === undefined) {
      created.push(path);
      doc.set(path, [entry.group]);
      continue;
    }
    const index = groups.findIndex((group) => ownGroup(group, entry.subcommand, known));
    if (index === -1) {
      removeOwnHandlers(doc, entry.event, entry.subcommand, known);
      doc.append(path, entry.group);
      continue;
    }
    if (!jsonEqual(groups[index], entry.group)) doc.set([...path, index], entry.group);
    // Older copies (a binary that moved, a hand-made duplicate) would run the hook twice.
    removeOwnHandlers(doc, entry.event, entry.subcommand, known, index);
  }
  if (desired.mcpServer !== undefined) {
    const container = desired.mcpContainer ?? 'mcpServers';
    const servers = doc.get([container]);
    if (servers !== undefined && !isObject(servers))
      throw wrongShape(label, `"${container}"`, 'an object');
    if (servers === undefined) created.push([container]);
    const current = servers?.[MCP_SERVER_NAME];
    const priorEntry = prior.find((r) => r.kind === 'mcp');
    const record: EntryRecord = { kind: 'mcp', name: MCP_SERVER_NAME, value: desired.mcpServer };
    if (container !== 'mcpServers') record.container = container;
    // A server that is none of mnemo's (this one, the last one installed, or one that looks like it)
    // is someone else's: it is what uninstall puts back.
    const foreign =
      current !== undefined &&
      !looksLikeMnemoServer(current) &&
      !jsonEqual(current, desired.mcpServer) &&
      !jsonEqual(current, priorEntry?.value);
    const previous = foreign ? current : priorEntry?.previous;
    if (previous !== undefined) record.previous = previous;
    entries.push(record);
    if (!jsonEqual(current, desired.mcpServer))
      doc.set([container, MCP_SERVER_NAME], desired.mcpServer);
  }
  return { entries, created };
}

/** What an uninstall edit did, for the report. */
export interface RemoveEdit {
  removed: number;
  /** Entries the user changed after install; left in place. */
  keptChanged: string[];
}

/**
 * Removes mnemo's entries from `doc`: every recognised hook handler (a group left empty goes too), the
 * MCP server if it is still what was installed (a foreign server it replaced comes back), then the
 * containers mnemo created if they are empty.
 */
export function removeEntries(
  doc: JsonText,
  record: { entries: readonly EntryRecord[]; created: readonly JSONPath[] } | undefined,
  label: string,
  current?: Registration | DesiredEntries,
  options: { rows?: HookRows; container?: string } = {},
): RemoveEdit {
  const entries = record?.entries ?? [];
  const known = knownCommands(entries, current ?? {});
  const container = options.container ?? 'mcpServers';
  let removed = 0;
  const keptChanged: string[] = [];
  // Without a record nothing says which containers mnemo created; one that only mnemo's removal
  // emptied can hold nothing of the user's, so it goes too.
  const emptied: JSONPath[] = [];
  for (const row of options.rows ?? HOOK_REGISTRATIONS) {
    if (hookGroups(doc, row.event, label) === undefined) continue;
    const count = removeOwnHandlers(doc, row.event, row.subcommand, known);
    removed += count;
    if (count > 0) emptied.push(['hooks', row.event]);
  }
  if (emptied.length > 0) emptied.push(['hooks']);
  const mcp = entries.find((r) => r.kind === 'mcp');
  const server = doc.get([container, MCP_SERVER_NAME]);
  const ours =
    mcp !== undefined ||
    looksLikeMnemoServer(server) ||
    (current?.mcpServer !== undefined && jsonEqual(server, current.mcpServer));
  if (server !== undefined && ours) {
    if (mcp !== undefined && !jsonEqual(server, mcp.value)) {
      keptChanged.push(`${container}.${MCP_SERVER_NAME} (edited after install)`);
    } else {
      doc.set([container, MCP_SERVER_NAME], mcp?.previous);
      removed += 1;
      emptied.push([container]);
    }
  }
  const created = [...(record?.created ?? (removed > 0 ? emptied : []))].sort(
    (a, b) => b.length - a.length,
  );
  for (const path of created) {
    const value = doc.get(path);
    if (
      (Array.isArray(value) && value.length === 0) ||
      (isObject(value) && Object.keys(value).length === 0)
    ) {
      doc.set(path, undefined);
    }
  }
  return { removed, keptChanged };
}

/** The groups of `hooks.<event>`, undefined when absent. Throws INVALID_INPUT on a wrong shape. */
function hookGroups(doc: JsonText, event: string, label: string): unknown[] | undefined {
  const hooks = doc.get(['hooks']);
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw wrongShape(label, '"hooks"', 'an object');
  const groups = hooks[event];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups)) throw wrongShape(label, `"hooks.${event}"`, 'an array');
  return groups as unknown[];
}

/** A group whose handlers are all mnemo's for `subcommand`. */
function ownGroup(group: unknown, subcommand: string, known: ReadonlySet<string>): boolean {
  if (!isObject(group) || !Array.isArray(group['hooks']) || group['hooks'].length === 0)
    return false;
  return group['hooks'].every((handler) => isOwnHandler(handler, subcommand, known));
}

/**
 * Removes mnemo's handlers for `subcommand` from every group of `event` but the one at `keep`; a group
 * left with no handler goes. Returns how many handlers went.
 */
function removeOwnHandlers(
  doc: JsonText,
  event: string,
  subcommand: string,
  known: ReadonlySet<string>,
  keep = -1,
): number {
  let removed = 0;
  const groups = (doc.get(['hooks', event]) as unknown[] | undefined) ?? [];
  // Backwards, so removing a group never shifts one still to visit (nor `keep`, visited or not).
  for (let g = groups.length - 1; g >= 0; g--) {
    if (g === keep) continue;
    const group = groups[g];
    if (!isObject(group) || !Array.isArray(group['hooks'])) continue;
    const handlers = group['hooks'] as unknown[];
    const own = handlers.flatMap((h, i) => (isOwnHandler(h, subcommand, known) ? [i] : []));
    if (own.length === 0) continue;
    removed += own.length;
    if (own.length === handlers.length) {
      doc.set(['hooks', event, g], undefined);
      continue;
    }
    for (const i of own.reverse()) doc.set(['hooks', event, g, 'hooks', i], undefined);
  }
  return removed;
}

function isOwnHandler(handler: unknown, subcommand: string, known: ReadonlySet<string>): boolean {
  if (!isObject(handler) || handler['type'] !== 'command') return false;
  const command = handler['command'];
  if (typeof command !== 'string') return false;
  // Subcommands are kebab-case words: nothing to escape.
  if (!new RegExp(`\\shook\\s+${subcommand}\\s*$`).test(command)) return false;
  return known.has(command) || command.includes('mnemo');
}

function looksLikeMnemoServer(value: unknown): boolean {
  if (!isObject(value)) return false;
  const args: unknown[] = Array.isArray(value['args']) ? (value['args'] as unknown[]) : [];
  const words = [value['command'], ...args];
  return words.at(-1) === 'mcp' && words.some((w) => typeof w === 'string' && w.includes('mnemo'));
}

function knownCommands(
  records: readonly EntryRecord[],
  desired: { hooks?: readonly (HookEntry | GroupHookEntry)[] },
): Set<string> {
  const commands = new Set<string>();
  for (const r of records) if (r.kind === 'hook') commands.add(r.command);
  for (const entry of desired.hooks ?? []) {
    for (const handler of entry.group.hooks) commands.add(handler.command);
  }
  return commands;
}

function wrongShape(label: string, key: string, expected: string): MemoryError {
  return new MemoryError(
    'INVALID_INPUT',
    `${label}: ${key} is not ${expected}, so mnemo cannot add to it safely. Fix the file and run the command again; nothing was written.`,
  );
}
