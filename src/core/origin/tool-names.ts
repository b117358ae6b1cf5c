/**
 * Tool-name normalisation and the table of Claude Code built-in tools we know. The table is the only place
 * a built-in gets a class; the drift guard (test/fixtures/claude-code-tools.json) pins it so a renamed or new
 * host tool shows up as a red test instead of a silent trust change.
 */
import type { OriginClass } from './origin-class.js';

/** A tool name after normalisation: what it is, and the canonical key it is looked up by. */
export type ParsedToolName =
  | { kind: 'builtin'; key: string }
  | { kind: 'mcp'; key: string; server: string; tool: string }
  | { kind: 'invalid'; key: '' };

// ASCII only: a look-alike such as a fullwidth "Ｅｄｉｔ" must not normalise onto a privileged built-in.
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const SEPARATORS = /[-_]/g;
// ASCII whitespace only: a BOM or no-break space inside a name makes it invalid, not a match.
const WHITESPACE = /[ \t\n\r\f\v]+/g;

function compact(segment: string): string {
  return segment.replace(SEPARATORS, '');
}

/**
 * Parses a host tool name. Case, whitespace and `-`/`_` are ignored (`WebFetch` = `web_fetch` =
 * ` webfetch `). `mcp__<server>__<tool>` keeps its two `__` separators and normalises each segment; the
 * plugin form `mcp__plugin_<plugin>_<server>__<tool>` is an ordinary MCP name whose server segment starts
 * with `plugin`. A tool segment of exactly `*` is kept (config wildcards). Non-ASCII, empty or malformed
 * names are `invalid`.
 */
export function parseToolName(raw: string): ParsedToolName {
  if (typeof raw !== 'string') return { kind: 'invalid', key: '' };
  const squeezed = raw.replace(WHITESPACE, '').toLowerCase();
  if (squeezed.length === 0 || squeezed.length > 256 || !PRINTABLE_ASCII.test(squeezed)) {
    return { kind: 'invalid', key: '' };
  }
  if (squeezed.startsWith('mcp__')) {
    const rest = squeezed.slice('mcp__'.length);
    const cut = rest.indexOf('__');
    const server = cut > 0 ? compact(rest.slice(0, cut)) : '';
    const tool = cut > 0 ? (rest.slice(cut + 2) === '*' ? '*' : compact(rest.slice(cut + 2))) : '';
    if (server.length === 0 || tool.length === 0) return { kind: 'invalid', key: '' };
    return { kind: 'mcp', key: `mcp__${server}__${tool}`, server, tool };
  }
  const key = compact(squeezed);
  return key.length === 0 ? { kind: 'invalid', key: '' } : { kind: 'builtin', key };
}

/** The canonical lookup key of a tool name (see {@link parseToolName}); `''` for an invalid name. */
export function normaliseToolName(raw: string): string {
  return parseToolName(raw).key;
}

/**
 * Claude Code built-ins (reference §6.1, v2.1.240) and legacy names (§6.2), by class. Only tools whose
 * output is plainly of one kind get a privileged class. Anything whose output mixes model-authored text with
 * other sources, depends on an MCP server, or comes from a sub-agent is `unknown` on purpose: listing it here
 * records that we know the name and chose no trust, which is different from never having seen it.
 */
const BUILTIN_CLASSES: Readonly<Record<OriginClass, readonly string[]>> = {
  user: [],
  agent: [],
  agent_tainted: [],
  // Model-authored text written into the user's files; Write/Edit outputs are diffs of that text.
  local_edit: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  // Local file content, usually someone else's (node_modules, vendored docs, plugin skill files).
  local_read: [
    'Read',
    'Grep',
    'Glob',
    'LS',
    'LSTool',
    'NotebookRead',
    'LSP',
    'Skill',
    'SlashCommand',
  ],
  // Command runners and process control: output can carry anything a command fetched.
  local_exec: [
    'Bash',
    'PowerShell',
    'BashOutput',
    'KillShell',
    'KillBash',
    'TaskStop',
    'EnterWorktree',
    'ExitWorktree',
  ],
  // Monitor can stream a WebSocket source and the name does not say which, so take the worse case.
  network: [
    'WebFetch',
    'WebSearch',
    'Monitor',
    'Artifact',
    'PushNotification',
    'RemoteTrigger',
    'SendUserFile',
    'ShareOnboardingGuide',
    'ListAgents',
    'SendMessage',
  ],
  unknown: [
    // Sub-agent and orchestration output is derived content whose sources we cannot see.
    'Agent',
    'Task',
    'TaskOutput',
    'Workflow',
    'TeamCreate',
    'TeamDelete',
    // Server-dependent content.
    'ListMcpResourcesTool',
    'ReadMcpResourceTool',
    'ToolSearch',
    'MCPSearch',
    'WaitForMcpServers',
    // Model-authored questions, plans and task lists: not a human channel, not a file edit.
    'AskUserQuestion',
    'EnterPlanMode',
    'ExitPlanMode',
    'TodoWrite',
    'TodoRead',
    'TaskCreate',
    'TaskGet',
    'TaskList',
    'TaskUpdate',
    'CronCreate',
    'CronDelete',
    'CronList',
    'ScheduleWakeup',
    'ReportFindings',
    'EndConversation',
  ],
};

function buildIndex(): ReadonlyMap<string, OriginClass> {
  const index = new Map<string, OriginClass>();
  for (const [origin, names] of Object.entries(BUILTIN_CLASSES) as [OriginClass, string[]][]) {
    for (const name of names) index.set(normaliseToolName(name), origin);
  }
  return index;
}

const BUILTIN_INDEX = buildIndex();

/** Every built-in name the table knows, in its documented spelling. */
export const KNOWN_BUILTIN_TOOLS: readonly string[] = Object.values(BUILTIN_CLASSES).flat();

/** The class of a known built-in, or `undefined` when the (normalised) name is not in the table. */
export function builtinToolClass(raw: string): OriginClass | undefined {
  const parsed = parseToolName(raw);
  return parsed.kind === 'builtin' ? BUILTIN_INDEX.get(parsed.key) : undefined;
}
