/**
 * Cursor agent hook events (hooks.json version 1; every payload has `conversation_id`,
 * `generation_id`, `hook_event_name` and `workspace_roots`) onto mnemo's Claude Code hooks. Cursor has
 * one event per kind of action rather than one per tool, so the event itself is the channel: an edit
 * event is an Edit, a shell event is Bash, a read is Read. MCP calls name their server either in the tool
 * name (`MCP:<server>:<tool>`) or through the server's `command`; a call whose server cannot be told is
 * renamed `cursor:mcp:<tool>`: unknown, tainting, and never one of mnemo's own tools. Pure.
 */
import {
  clientSession,
  foreignToolName,
  ignore,
  type MappedHook,
  objectOf,
  stringField,
} from './mapped-hook.js';

/** What the mapper knows of this machine: the commands that start mnemo's own MCP server. */
export interface CursorContext {
  /** The launcher path (and any other command) a Cursor config of mnemo's server runs. */
  readonly ownServerCommands: readonly string[];
}

function base(payload: Record<string, unknown>, event: string): Record<string, unknown> {
  const roots = payload['workspace_roots'];
  const root = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  return {
    session_id: clientSession('cursor', stringField(payload, 'conversation_id')),
    cwd: stringField(payload, 'cwd') ?? root,
    hook_event_name: event,
  };
}

/**
 * The Claude Code name of a Cursor MCP call: `mcp__<server>__<tool>` when the payload says which
 * server (in the tool name, or by running one of mnemo's own server commands), else a foreign name.
 */
export function cursorMcpToolName(payload: Record<string, unknown>, ctx: CursorContext): string {
  const name = stringField(payload, 'tool_name') ?? '';
  const qualified = /^MCP:([^:\s]+):(\S+)$/.exec(name);
  if (qualified !== null) return `mcp__${qualified[1] ?? ''}__${qualified[2] ?? ''}`;
  const command = stringField(payload, 'command');
  const program = command?.trim().split(/\s+/)[0];
  if (program !== undefined && ctx.ownServerCommands.includes(program) && name.length > 0) {
    return `mcp__mnemo__${name}`;
  }
  return foreignToolName('cursor', `mcp:${name}`);
}

/** What mnemo does with one Cursor hook event. */
export function mapCursorHook(
  event: string,
  payload: Record<string, unknown>,
  ctx: CursorContext,
): MappedHook {
  const tool = (
    hook: 'post-tool-use' | 'pre-tool-use',
    toolName: string,
    toolInput: Record<string, unknown>,
    toolResponse?: unknown,
  ): MappedHook => ({
    kind: 'hook',
    hook,
    payload: {
      ...base(payload, hook === 'pre-tool-use' ? 'PreToolUse' : 'PostToolUse'),
      tool_name: toolName,
      tool_input: toolInput,
      ...(toolResponse === undefined ? {} : { tool_response: toolResponse }),
    },
    output: 'drop',
  });
  switch (event) {
    case 'beforeSubmitPrompt':
      // The user's prompt closes the taint window. Cursor reads no context from this event, so the
      // prompt is not passed on and nothing is recalled for it.
      return {
        kind: 'hook',
        hook: 'user-prompt-submit',
        payload: base(payload, 'UserPromptSubmit'),
        output: 'drop',
      };
    case 'beforeMCPExecution':
      return tool(
        'pre-tool-use',
        cursorMcpToolName(payload, ctx),
        objectOf(payload['tool_input']) ?? {},
      );
    case 'afterMCPExecution':
      return tool(
        'post-tool-use',
        cursorMcpToolName(payload, ctx),
        objectOf(payload['tool_input']) ?? {},
        objectOf(payload['result_json']) ?? payload['result_json'],
      );
    case 'afterFileEdit':
      return tool('post-tool-use', 'MultiEdit', {
        file_path: payload['file_path'],
        edits: Array.isArray(payload['edits']) ? payload['edits'] : [],
      });
    case 'afterShellExecution':
      return tool(
        'post-tool-use',
        'Bash',
        { command: payload['command'] },
        { stdout: typeof payload['output'] === 'string' ? payload['output'] : '' },
      );
    case 'beforeReadFile':
      // The file's content is about to enter the context: a Read, for taint (strict mode) and policy.
      return tool('post-tool-use', 'Read', { file_path: payload['file_path'] }, payload['content']);
    default:
      return ignore('event not mapped');
  }
}
