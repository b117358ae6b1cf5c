/**
 * The one edit mnemo makes to a Codex `config.toml`: append its own `[mcp_servers.mnemo]` table, and
 * later remove exactly the text it appended. No TOML library is a dependency, and none is needed for
 * this: every other byte of the file (comments, order, layout, other tables) is kept because it is
 * never parsed into values and printed back. What is parsed is only enough to be safe: where the
 * top-level lines are (outside multi-line strings and arrays), so a server the user already named
 * `mnemo`, in any of TOML's spellings, is found and refused rather than duplicated. Pure.
 */
import { MemoryError } from '../errors.js';

/** The table mnemo owns. */
export const CODEX_TABLE = 'mcp_servers.mnemo';

/** A TOML basic string for `value`. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The table's lines for a server started as `command args…`, with `eol` line ends. */
export function codexServerTable(command: string, args: readonly string[], eol = '\n'): string {
  return [
    `[${CODEX_TABLE}]`,
    `command = ${tomlString(command)}`,
    `args = [${args.map(tomlString).join(', ')}]`,
  ]
    .map((line) => line + eol)
    .join('');
}

/**
 * The offsets of the lines that start at the top level of `text`: not inside a multi-line string, an
 * array or an inline table that began on an earlier line. Table headers can only be among them.
 */
export function topLevelLineStarts(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let string: '"' | "'" | '"""' | "'''" | undefined;
  let comment = false;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    if (lineStart && string === undefined && depth === 0) {
      starts.push(i);
      const first = /^[ \t]*/.exec(text.slice(i, i + 256))?.[0].length ?? 0;
      if (text.charAt(i + first) === '[') {
        // A table header is one line and holds no value: skip it whole (its quoted keys included).
        const end = text.indexOf('\n', i);
        if (end === -1) break;
        lineStart = false;
        i = end - 1;
        continue;
      }
    }
    lineStart = false;
    const ch = text.charAt(i);
    if (ch === '\n') {
      comment = false;
      lineStart = true;
      // A one-line string cannot span lines; an unterminated one is the user's syntax error.
      if (string === '"' || string === "'") string = undefined;
      continue;
    }
    if (comment) continue;
    if (string !== undefined) {
      if ((string === '"' || string === '"""') && ch === '\\') i++;
      else if (text.startsWith(string, i)) {
        i += string.length - 1;
        string = undefined;
      }
      continue;
    }
    if (ch === '#') comment = true;
    else if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      string = text.slice(i, i + 3) as '"""' | "'''";
      i += 2;
    } else if (ch === '"' || ch === "'") string = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
  }
  return starts;
}

// Any spelling of the `mnemo` key under `mcp_servers`: a header (`[mcp_servers.mnemo]`, quoted keys,
// sub-tables), a dotted key (`mcp_servers.mnemo.command = …`) or an inline table (`mcp_servers = {…}`).
const KEY = String.raw`(?:mnemo|"mnemo"|'mnemo')`;
const SERVERS = String.raw`(?:mcp_servers|"mcp_servers"|'mcp_servers')`;
const MNEMO_HEADER = new RegExp(String.raw`^\s*\[\s*${SERVERS}\s*\.\s*${KEY}\s*[.\]]`);
const MNEMO_DOTTED = new RegExp(String.raw`^\s*${SERVERS}\s*\.\s*${KEY}\s*[.=]`);
const SERVERS_INLINE = new RegExp(String.raw`^\s*${SERVERS}\s*=`);
const SERVERS_HEADER = new RegExp(String.raw`^\s*\[\s*${SERVERS}\s*\]`);
const ANY_HEADER = /^\s*\[/;
const MNEMO_KEY_LINE = new RegExp(String.raw`^\s*${KEY}\s*[.=]`);

/** Whether `text` already defines a server named `mnemo`, in any spelling. */
export function definesMnemoServer(text: string): boolean {
  const starts = topLevelLineStarts(text);
  let inServersTable = false;
  for (const [n, start] of starts.entries()) {
    const end = starts[n + 1] ?? text.length;
    const line = text.slice(start, end).split('\n')[0] ?? '';
    if (MNEMO_HEADER.test(line) || MNEMO_DOTTED.test(line)) return true;
    if (SERVERS_INLINE.test(line) && /\bmnemo\b/.test(text.slice(start, end))) return true;
    if (ANY_HEADER.test(line)) {
      inServersTable = SERVERS_HEADER.test(line);
      continue;
    }
    if (inServersTable && MNEMO_KEY_LINE.test(line)) return true;
  }
  return false;
}

/** The file's line ending: CRLF when it uses one, else LF. */
export function tomlEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * `text` with `table` appended (a separating line end first when the file does not end with one, and a
 * blank line before the header when the file has content). Returns the new text and the exact text
 * added, which is what removal looks for. Throws INVALID_INPUT when a `mnemo` server is already defined.
 */
export function appendTable(
  text: string,
  table: string,
  label: string,
): { text: string; added: string } {
  if (definesMnemoServer(text)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${label} already defines an MCP server named mnemo that mnemo did not write. Remove or rename ` +
        'it and run the command again; nothing was written.',
    );
  }
  const eol = tomlEol(text);
  let prefix = '';
  if (text.length > 0) {
    if (!text.endsWith('\n')) prefix += eol;
    if (!/(?:\r?\n){2}$/.test(text + prefix)) prefix += eol;
  }
  const added = prefix + table;
  return { text: text + added, added };
}

/**
 * `text` without the last copy of `added`; undefined when it is not there as written (the user edited
 * mnemo's table, or removed it).
 */
export function removeAdded(text: string, added: string): string | undefined {
  const at = text.lastIndexOf(added);
  if (at === -1 || added.length === 0) return undefined;
  return text.slice(0, at) + text.slice(at + added.length);
}
