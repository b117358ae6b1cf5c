/**
 * The MCP clients besides Claude Code that `mnemo install --client <id>` registers with, and what each
 * one's documented configuration holds: the key its servers live under and the shape of one server
 * entry, and the hook events mnemo answers where the client documents hooks. Pure: where the files are
 * is the installer's business (install/client-targets.ts), how the binary starts is the launcher's.
 *
 * Each hook row names the client's own event; the command is `<launcher> hook --client <id> <event>`,
 * and hooks/client-hooks maps the client's payload onto mnemo's hook of the same meaning.
 */
import { hookCommand, type Launcher, MCP_SERVER_NAME } from './registration.js';

/** Clients `--client` accepts. `claude-code` is the default and keeps its own registration table. */
export const CLIENT_IDS = [
  'claude-code',
  'cursor',
  'vscode',
  'codex',
  'gemini',
  'claude-desktop',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** True for a client id `--client` accepts. */
export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}

/** Clients whose hook payloads `mnemo hook --client <id>` reads. */
export const HOOK_CLIENTS = ['cursor', 'gemini'] as const;
export type HookClient = (typeof HOOK_CLIENTS)[number];

/** True for a client with documented hooks that mnemo registers. */
export function isHookClient(value: string): value is HookClient {
  return (HOOK_CLIENTS as readonly string[]).includes(value);
}

/** The display name of a client, for reports and doctor lines. */
export const CLIENT_NAMES: Readonly<Record<ClientId, string>> = {
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  'claude-desktop': 'Claude Desktop',
};

/** One hook event mnemo registers with a client. */
export interface ClientHookRow {
  /** The client's event name, exactly as its hook file spells it. */
  readonly event: string;
  /** Gemini CLI matcher (a regex over tool names); Cursor has none on these events. */
  readonly matcher?: string;
  /** Milliseconds (Gemini CLI) or seconds (Cursor), as each client documents its `timeout`. */
  readonly timeout: number;
}

/**
 * Cursor's agent hooks (`hooks.json`, version 1). Only the events whose payload says what entered the
 * model or that a person typed: the prompt (a new user turn), each MCP call (before: the remember claim of
 * mnemo's own writing tools; after: the taint of its result), file edits, shell results and file reads.
 * `stop` and the response/thought events carry the model's own text and nothing mnemo needs.
 */
export const CURSOR_HOOKS: readonly ClientHookRow[] = [
  { event: 'beforeSubmitPrompt', timeout: 5 },
  { event: 'beforeMCPExecution', timeout: 5 },
  { event: 'afterMCPExecution', timeout: 5 },
  { event: 'afterFileEdit', timeout: 5 },
  { event: 'afterShellExecution', timeout: 5 },
  { event: 'beforeReadFile', timeout: 5 },
];

/** Our own tools as Gemini CLI names MCP tools (`mcp__<server>__<tool>`, its hooks reference). */
const GEMINI_OWN_CLAIMING = `^mcp__${MCP_SERVER_NAME}__(remember|supersede_memory|checkpoint|reverify_memory)$`;

/**
 * Gemini CLI hooks (settings.json `hooks`, the same group shape as Claude Code's, timeouts in ms).
 * AfterTool has no matcher for the same reason as Claude Code's PostToolUse: an unknown or new tool must
 * still taint the session, so the hook has to see every tool.
 */
export const GEMINI_HOOKS: readonly ClientHookRow[] = [
  { event: 'SessionStart', timeout: 10_000 },
  { event: 'BeforeAgent', timeout: 5000 },
  { event: 'BeforeTool', matcher: GEMINI_OWN_CLAIMING, timeout: 5000 },
  { event: 'AfterTool', timeout: 5000 },
];

/** The hook table of a client with hooks. */
export function clientHookRows(client: HookClient): readonly ClientHookRow[] {
  return client === 'cursor' ? CURSOR_HOOKS : GEMINI_HOOKS;
}

/** The `hook` arguments after the launcher for one client event. */
export function clientHookSubcommand(client: HookClient, event: string): string {
  return `--client ${client} ${event}`;
}

/** The shell command a client runs for `event`. */
export function clientHookCommand(launcher: Launcher, client: HookClient, event: string): string {
  return hookCommand(launcher, clientHookSubcommand(client, event));
}

/** Where a client keeps its servers, and one server entry as its documentation shows it. */
export interface ClientServer {
  /** The top-level key holding the servers: `mcpServers`, or `servers` for VS Code. */
  readonly container: 'mcpServers' | 'servers';
  readonly name: string;
  readonly value: Record<string, unknown>;
}

/** The server entry a JSON client gets. VS Code wants `type: stdio`; the others infer it from `command`. */
export function clientServer(
  client: Exclude<ClientId, 'claude-code' | 'codex'>,
  launcher: Launcher,
): ClientServer {
  const args = [...launcher.mcpArgs, 'mcp'];
  if (client === 'vscode') {
    return {
      container: 'servers',
      name: MCP_SERVER_NAME,
      value: { type: 'stdio', command: launcher.mcpCommand, args },
    };
  }
  return {
    container: 'mcpServers',
    name: MCP_SERVER_NAME,
    value: { command: launcher.mcpCommand, args },
  };
}
