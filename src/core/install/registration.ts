/**
 * What mnemo registers with Claude Code: the one table of hook events, matchers and timeouts, and the
 * MCP server entry. `mnemo install` writes it into settings files and the shipped plugin layout
 * (`.claude-plugin/plugin.json`, `hooks/hooks.json`, `.mcp.json`) is checked against it, so the two
 * routes cannot drift. Pure: the launcher (how the binary is invoked) is a parameter.
 */

/** The Claude Code hook events mnemo listens to. */
export type ClaudeHookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'SessionEnd';

/** Where the registration goes: a settings file (plain server name) or our plugin (scoped name). */
export type RegistrationFlavour = 'settings' | 'plugin';

/** The MCP server key mnemo registers; hooks see its tools as `mcp__mnemo__<tool>`. */
export const MCP_SERVER_NAME = 'mnemo';
/** The plugin's name; its bundled server's tools appear as `mcp__plugin_mnemo_mnemo__<tool>`. */
export const PLUGIN_NAME = 'mnemo';

/** One row of the table. `matcher` receives the prefix under which hooks see mnemo's own tools. */
export interface HookRegistration {
  readonly event: ClaudeHookEvent;
  /** The `mnemo hook <subcommand>` that answers the event. */
  readonly subcommand: string;
  readonly matcher?: (ownToolPrefix: string) => string;
  /** Seconds. A backstop only: the hook gives itself up after 1.5 s and exits 0 (run-hook.ts). */
  readonly timeout: number;
}

/**
 * mnemo's MCP tools whose effect depends on the session's taint (the content writers and
 * `reverify_memory`); PreToolUse records a remember claim for each so the server can learn the call's
 * session (core/origin/own-tools.ts CLAIMING_TOOLS must list the same names).
 */
const CLAIMING_TOOLS = ['remember', 'supersede_memory', 'checkpoint', 'reverify_memory'] as const;

/** The table. Order is the order entries are written. */
export const HOOK_REGISTRATIONS: readonly HookRegistration[] = [
  // `fork` is left out like the brief's list; a forked session already holds its parent's context.
  {
    event: 'SessionStart',
    subcommand: 'session-start',
    matcher: () => 'startup|resume|clear|compact',
    timeout: 10,
  },
  // No matcher support on this event (§1.10); the 30 s default would stall the prompt on a wedged hook.
  { event: 'UserPromptSubmit', subcommand: 'user-prompt-submit', timeout: 5 },
  // Only our own content-writing tools: the claim links the MCP call to its session (pre-tool-use.ts).
  // Anchored: a character outside `[A-Za-z0-9_|-]` makes Claude Code read the matcher as an unanchored regex.
  {
    event: 'PreToolUse',
    subcommand: 'pre-tool-use',
    matcher: (own) => `^${own}(${CLAIMING_TOOLS.join('|')})$`,
    timeout: 5,
  },
  // No matcher: every tool. Taint must fail closed: an unknown, renamed or new tool, a sub-agent result or
  // (with taint.strict) a file read taints the session even when nothing is captured, so the hook has to see
  // it; a narrower matcher would turn a new tool into a silent trust upgrade. The hook skips cheaply.
  { event: 'PostToolUse', subcommand: 'post-tool-use', timeout: 5 },
  {
    event: 'PostToolUseFailure',
    subcommand: 'post-tool-use-failure',
    matcher: () => 'Bash',
    timeout: 5,
  },
  { event: 'PreCompact', subcommand: 'pre-compact', timeout: 10 },
  // All SessionEnd hooks share a 1.5 s budget that a settings-file timeout raises (capped at 60 s, §1.7).
  // Node start-up plus the hook's own 1.5 s deadline needs a little more; plugin timeouts cannot raise it.
  { event: 'SessionEnd', subcommand: 'session-end', timeout: 3 },
];

/** The prefix of mnemo's own tool names as hooks see them in `flavour`. */
export function ownToolPrefix(flavour: RegistrationFlavour): string {
  return flavour === 'plugin'
    ? `mcp__plugin_${PLUGIN_NAME}_${MCP_SERVER_NAME}__`
    : `mcp__${MCP_SERVER_NAME}__`;
}

/** A `type: command` hook handler, keys in the order they are written. */
export interface CommandHandler {
  type: 'command';
  command: string;
  timeout: number;
}

/** A matcher group as it sits in a `hooks.<Event>` array. */
export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHandler[];
}

/** A stdio MCP server entry (reference §4.2). */
export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

/** How the binary is started: a shell command prefix for hooks, an exec form for the MCP server. */
export interface Launcher {
  /** Shell-form prefix; `<prefix> hook <subcommand>` is the hook command. */
  readonly hookPrefix: string;
  readonly mcpCommand: string;
  /** Arguments before `mcp`. */
  readonly mcpArgs: readonly string[];
}

/** One hook entry of a registration: the group mnemo owns on `event`. */
export interface HookEntry {
  readonly event: ClaudeHookEvent;
  readonly subcommand: string;
  readonly group: MatcherGroup;
}

/** Everything one registration writes. */
export interface Registration {
  readonly hooks: readonly HookEntry[];
  readonly mcpServer: McpServerEntry;
}

/** The hook command for `subcommand` under `launcher`. */
export function hookCommand(launcher: Launcher, subcommand: string): string {
  return `${launcher.hookPrefix} hook ${subcommand}`;
}

/** Builds the registration for a launcher. */
export function buildRegistration(flavour: RegistrationFlavour, launcher: Launcher): Registration {
  const own = ownToolPrefix(flavour);
  return {
    hooks: HOOK_REGISTRATIONS.map((row) => {
      const handler: CommandHandler = {
        type: 'command',
        command: hookCommand(launcher, row.subcommand),
        timeout: row.timeout,
      };
      const group: MatcherGroup =
        row.matcher === undefined
          ? { hooks: [handler] }
          : { matcher: row.matcher(own), hooks: [handler] };
      return { event: row.event, subcommand: row.subcommand, group };
    }),
    mcpServer: { type: 'stdio', command: launcher.mcpCommand, args: [...launcher.mcpArgs, 'mcp'] },
  };
}

/**
 * The plugin's launcher. Shell form with the placeholder in double quotes, as the plugin reference shows
 * (§3.3): single quotes would stop the expansion, and no quotes would split a path with spaces.
 */
export const PLUGIN_MAIN = '${CLAUDE_PLUGIN_ROOT}/dist/cli/mnemo.cjs';
export const PLUGIN_LAUNCHER: Launcher = {
  hookPrefix: `node "${PLUGIN_MAIN}"`,
  mcpCommand: 'node',
  mcpArgs: [PLUGIN_MAIN],
};

/** The package metadata the plugin manifest copies. */
export interface PackageInfo {
  version: string;
  description: string;
}

/** The three files of the plugin layout, by path relative to the plugin (= package) root. */
export function pluginLayout(pkg: PackageInfo): Record<string, unknown> {
  const registration = buildRegistration('plugin', PLUGIN_LAUNCHER);
  const hooks: Partial<Record<ClaudeHookEvent, MatcherGroup[]>> = {};
  for (const entry of registration.hooks) (hooks[entry.event] ??= []).push(entry.group);
  return {
    '.claude-plugin/plugin.json': {
      name: PLUGIN_NAME,
      version: pkg.version,
      description: pkg.description,
      license: 'MIT',
    },
    'hooks/hooks.json': {
      description: 'mnemo: capture and recall memory; every hook exits 0 and fails open.',
      hooks,
    },
    '.mcp.json': { mcpServers: { [MCP_SERVER_NAME]: registration.mcpServer } },
  };
}
