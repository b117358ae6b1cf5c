/**
 * One editor per kind of client file: what installing adds to its text and what uninstalling takes out
 * when the file changed since (an unchanged file is restored from its backup by run-uninstall, whatever
 * its kind). Every editor changes only mnemo's own entries and keeps every other byte: JSON through
 * JsonText's surgical edits, Codex's TOML through the append/remove of mnemo's own table.
 */
import type { JSONPath } from 'jsonc-parser';

import { MemoryError } from '../core/errors.js';
import {
  clientHookCommand,
  clientHookRows,
  clientHookSubcommand,
  type ClientId,
  clientServer,
  type HookClient,
} from '../core/install/clients.js';
import { buildRegistration, type Launcher } from '../core/install/registration.js';
import {
  appendTable,
  CODEX_TABLE,
  codexServerTable,
  definesMnemoServer,
  removeAdded,
  tomlEol,
} from '../core/install/toml-table.js';
import { allowsComments } from './client-targets.js';
import type { FileRecord } from './install-manifest.js';
import type { TargetFile } from './install-targets.js';
import { isObject, jsonEqual, JsonText } from './json-text.js';
import {
  addEntries,
  type DesiredEntries,
  type EntryRecord,
  type GroupHookEntry,
  type HookRows,
  removeEntries,
} from './settings-edit.js';

/** What an install makes of a file's text. */
export interface PlannedInstall {
  after: string;
  entries: EntryRecord[];
  /** JSON containers mnemo created, removed again when left empty. */
  created: JSONPath[];
}

/** What removing mnemo's entries makes of a changed file's text. */
export interface PlannedRemoval {
  after: string;
  /** Entries the user changed after install; left in place. */
  keptChanged: string[];
  /** Nothing is left in the file. */
  empty: boolean;
}

/** The install and removal of one file. */
export interface FileEditor {
  install(before: string | undefined, prior: FileRecord | undefined): PlannedInstall;
  remove(before: string, record: FileRecord | undefined): PlannedRemoval;
}

/** The editor of `target`, one of `client`'s files, registering `launcher`. */
export function fileEditor(client: ClientId, target: TargetFile, launcher: Launcher): FileEditor {
  const label = target.path;
  switch (target.role) {
    case 'settings':
    case 'mcp': {
      const registration = buildRegistration('settings', launcher);
      const desired: DesiredEntries =
        target.role === 'settings'
          ? { hooks: registration.hooks }
          : { mcpServer: registration.mcpServer };
      return jsonEditor(label, desired, false, registration);
    }
    case 'servers': {
      if (client === 'claude-code' || client === 'codex') throw wrongRole(client, target);
      const server = clientServer(client, launcher);
      const desired = { mcpServer: server.value, mcpContainer: server.container };
      return jsonEditor(label, desired, allowsComments(client), desired, {
        rows: [],
        container: server.container,
      });
    }
    case 'gemini-settings': {
      const server = clientServer('gemini', launcher);
      const desired: DesiredEntries = {
        hooks: geminiHookEntries(launcher),
        mcpServer: server.value,
        mcpContainer: server.container,
      };
      return jsonEditor(label, desired, true, desired, { rows: hookRows('gemini') });
    }
    case 'cursor-hooks':
      return cursorHooksEditor(label, launcher);
    case 'codex-config':
      return codexEditor(label, launcher);
  }
}

function wrongRole(client: ClientId, target: TargetFile): Error {
  return new Error(`no ${target.role} file for ${client}`);
}

function jsonEditor(
  label: string,
  desired: DesiredEntries,
  comments: boolean,
  current: Parameters<typeof removeEntries>[3],
  options: Parameters<typeof removeEntries>[4] = {},
): FileEditor {
  return {
    install(before, prior) {
      const doc = JsonText.parse(before, label, { comments });
      const edit = addEntries(doc, desired, prior?.entries ?? [], label);
      return { after: doc.text(), entries: edit.entries, created: edit.created };
    },
    remove(before, record) {
      const doc = JsonText.parse(before, label, { comments });
      const edit = removeEntries(doc, record, label, current, options);
      return {
        after: doc.text(),
        keptChanged: edit.keptChanged,
        empty: Object.keys(doc.value()).length === 0,
      };
    },
  };
}

function hookRows(client: HookClient): HookRows {
  return clientHookRows(client).map((row) => ({
    event: row.event,
    subcommand: clientHookSubcommand(client, row.event),
  }));
}

/** Gemini CLI's groups: the Claude Code shape, a `name` so its `/hooks` panel lists them, ms timeouts. */
function geminiHookEntries(launcher: Launcher): GroupHookEntry[] {
  return clientHookRows('gemini').map((row) => {
    const handler = {
      type: 'command' as const,
      name: `mnemo ${row.event}`,
      command: clientHookCommand(launcher, 'gemini', row.event),
      timeout: row.timeout,
    };
    return {
      event: row.event,
      subcommand: clientHookSubcommand('gemini', row.event),
      group:
        row.matcher === undefined
          ? { hooks: [handler] }
          : { matcher: row.matcher, hooks: [handler] },
    };
  });
}

/**
 * Cursor's `hooks.json`: `{ "version": 1, "hooks": { "<event>": [{ "command": "…" }] } }`, one flat list
 * of handlers per event. mnemo's handlers are recognised by their command, as in Claude Code's files.
 */
function cursorHooksEditor(label: string, launcher: Launcher): FileEditor {
  const rows = clientHookRows('cursor');
  const commandOf = (event: string) => clientHookCommand(launcher, 'cursor', event);
  const known = (records: readonly EntryRecord[]) =>
    new Set([
      ...records.flatMap((r) => (r.kind === 'hook' ? [r.command] : [])),
      ...rows.map((row) => commandOf(row.event)),
    ]);
  return {
    install(before, prior) {
      const doc = JsonText.parse(before, label);
      const own = known(prior?.entries ?? []);
      const created: JSONPath[] = [];
      const entries: EntryRecord[] = [];
      if (doc.get(['version']) === undefined) {
        created.push(['version']);
        doc.set(['version'], 1);
      }
      const hooks = doc.get(['hooks']);
      if (hooks !== undefined && !isObject(hooks)) throw wrongShape(label, '"hooks"', 'an object');
      if (hooks === undefined) created.push(['hooks']);
      for (const row of rows) {
        const path = ['hooks', row.event];
        const command = commandOf(row.event);
        const handler = { command };
        entries.push({
          kind: 'hook',
          event: row.event,
          subcommand: clientHookSubcommand('cursor', row.event),
          command,
        });
        const list = doc.get(path);
        if (list === undefined) {
          created.push(path);
          doc.set(path, [handler]);
          continue;
        }
        if (!Array.isArray(list)) throw wrongShape(label, `"hooks.${row.event}"`, 'an array');
        const mine = ownIndexes(list, 'cursor', row.event, own);
        const first = mine[0];
        if (first === undefined) {
          doc.append(path, handler);
          continue;
        }
        if (!jsonEqual(list[first], handler)) doc.set([...path, first], handler);
        // Older copies (a moved binary, a hand-made duplicate) would run the hook twice.
        for (const i of mine.slice(1).reverse()) doc.set([...path, i], undefined);
      }
      return { after: doc.text(), entries, created };
    },
    remove(before, record) {
      const doc = JsonText.parse(before, label);
      const own = known(record?.entries ?? []);
      const hooks = doc.get(['hooks']);
      const emptied: JSONPath[] = [];
      if (isObject(hooks)) {
        for (const row of rows) {
          const list = hooks[row.event];
          if (!Array.isArray(list)) continue;
          const mine = ownIndexes(list, 'cursor', row.event, own);
          for (const i of mine.reverse()) doc.set(['hooks', row.event, i], undefined);
          if (mine.length > 0) emptied.push(['hooks', row.event]);
        }
        if (emptied.length > 0) emptied.push(['hooks']);
      }
      const created = record?.created ?? emptied;
      for (const path of [...created].sort((a, b) => b.length - a.length)) {
        const value = doc.get(path);
        const empty =
          (Array.isArray(value) && value.length === 0) ||
          (isObject(value) && Object.keys(value).length === 0);
        // The version mnemo added goes with the hooks it added, once nothing else is left.
        const lastVersion =
          path.length === 1 &&
          path[0] === 'version' &&
          Object.keys(doc.value()).every((key) => key === 'version');
        if (empty || lastVersion) doc.set(path, undefined);
      }
      return { after: doc.text(), keptChanged: [], empty: Object.keys(doc.value()).length === 0 };
    },
  };
}

function ownIndexes(
  list: readonly unknown[],
  client: HookClient,
  event: string,
  known: ReadonlySet<string>,
): number[] {
  const tail = new RegExp(`\\shook\\s+--client\\s+${client}\\s+${event}\\s*$`);
  return list.flatMap((item, i) => {
    if (!isObject(item) || typeof item['command'] !== 'string') return [];
    const command = item['command'];
    return tail.test(command) && (known.has(command) || command.includes('mnemo')) ? [i] : [];
  });
}

/** Codex's `config.toml`: mnemo's `[mcp_servers.mnemo]` table appended, and later taken out again. */
function codexEditor(label: string, launcher: Launcher): FileEditor {
  const tableFor = (text: string) =>
    codexServerTable(launcher.mcpCommand, [...launcher.mcpArgs, 'mcp'], tomlEol(text));
  return {
    install(before, prior) {
      let text = before ?? '';
      const table = tableFor(text);
      const previous = prior?.entries.find((r) => r.kind === 'toml');
      if (previous !== undefined) {
        if (previous.text.endsWith(table) && text.includes(previous.text)) {
          return { after: text, entries: [previous], created: [] };
        }
        text = removeAdded(text, previous.text) ?? text;
      } else if (text.includes(table)) {
        // mnemo's table without a record (a lost manifest): it is ours, nothing to add.
        return {
          after: text,
          entries: [{ kind: 'toml', table: CODEX_TABLE, text: table }],
          created: [],
        };
      }
      const { text: after, added } = appendTable(text, table, label);
      return { after, entries: [{ kind: 'toml', table: CODEX_TABLE, text: added }], created: [] };
    },
    remove(before, record) {
      const previous = record?.entries.find((r) => r.kind === 'toml');
      const table = tableFor(before);
      const after =
        (previous === undefined ? undefined : removeAdded(before, previous.text)) ??
        removeAdded(before, table);
      if (after !== undefined) return { after, keptChanged: [], empty: after.trim() === '' };
      const keptChanged =
        definesMnemoServer(before) && previous !== undefined
          ? [`[${CODEX_TABLE}] (edited after install)`]
          : [];
      return { after: before, keptChanged, empty: before.trim() === '' };
    },
  };
}

function wrongShape(label: string, key: string, expected: string): MemoryError {
  return new MemoryError(
    'INVALID_INPUT',
    `${label}: ${key} is not ${expected}, so mnemo cannot add to it safely. Fix the file and run the command again; nothing was written.`,
  );
}
