/**
 * Gemini CLI hook events (its hooks reference: settings.json `hooks`, the envelope `session_id`, `cwd`,
 * `hook_event_name`, `tool_name`, `tool_input`, `tool_response: { llmContent, returnDisplay, error }`)
 * onto mnemo's Claude Code hooks. Gemini CLI names MCP tools `mcp__<server>__<tool>` as Claude Code does,
 * so those pass unchanged (every `mcp__*` is `unknown` unless registered; mnemo's own are recognised as
 * in Claude Code). Its built-in tools are mapped by name through a fixed allowlist; any other name,
 * including a new built-in, becomes `gemini:<name>`: unknown, tainting, never privileged. Pure.
 */
import {
  clientSession,
  foreignToolName,
  ignore,
  type MappedHook,
  objectOf,
  stringField,
} from './mapped-hook.js';

/**
 * Gemini CLI's built-in tools whose Claude Code counterpart has the same channel, with the same
 * argument names where mnemo captures from them (`replace` and `write_file` take `file_path`,
 * `old_string`/`new_string` and `content`; `run_shell_command` takes `command`).
 */
export const GEMINI_TOOL_NAMES: Readonly<Record<string, string>> = {
  replace: 'Edit',
  write_file: 'Write',
  read_file: 'Read',
  read_many_files: 'Read',
  glob: 'Glob',
  search_file_content: 'Grep',
  list_directory: 'LS',
  run_shell_command: 'Bash',
  web_fetch: 'WebFetch',
  google_web_search: 'WebSearch',
};

/** The Claude Code tool name for a Gemini CLI tool name. */
export function geminiToolName(name: string): string {
  if (name.startsWith('mcp__')) return name;
  return Object.hasOwn(GEMINI_TOOL_NAMES, name)
    ? (GEMINI_TOOL_NAMES[name] as string)
    : foreignToolName('gemini', name);
}

/** The envelope fields every mapped event carries. */
function base(payload: Record<string, unknown>, event: string): Record<string, unknown> {
  return {
    session_id: clientSession('gemini', stringField(payload, 'session_id')),
    cwd: stringField(payload, 'cwd'),
    hook_event_name: event,
  };
}

/** What mnemo does with one Gemini CLI hook event. */
export function mapGeminiHook(event: string, payload: Record<string, unknown>): MappedHook {
  switch (event) {
    case 'SessionStart':
      return {
        kind: 'hook',
        hook: 'session-start',
        payload: { ...base(payload, 'SessionStart'), source: stringField(payload, 'source') },
        output: 'pass',
      };
    case 'BeforeAgent':
      // The user's prompt: the turn boundary that clears the session's taint, then prompt recall.
      return {
        kind: 'hook',
        hook: 'user-prompt-submit',
        payload: { ...base(payload, 'UserPromptSubmit'), prompt: stringField(payload, 'prompt') },
        output: 'pass',
      };
    case 'BeforeTool':
      return {
        kind: 'hook',
        hook: 'pre-tool-use',
        payload: { ...base(payload, 'PreToolUse'), ...toolFields(payload) },
        output: 'drop',
      };
    case 'AfterTool':
      return afterTool(payload);
    default:
      return ignore('event not mapped');
  }
}

function toolFields(payload: Record<string, unknown>): Record<string, unknown> {
  const name = stringField(payload, 'tool_name');
  return {
    // Missing: the schema refuses the payload, and the refusal still taints the session.
    tool_name: name === undefined ? undefined : geminiToolName(name),
    tool_input: objectOf(payload['tool_input']) ?? {},
  };
}

/**
 * A tool result. `tool_response.error` set means the tool failed (PostToolUseFailure, its message as the
 * error); otherwise the result is `llmContent`, the text the model read.
 */
function afterTool(payload: Record<string, unknown>): MappedHook {
  const response = objectOf(payload['tool_response']);
  const error = response?.['error'];
  if (error !== undefined && error !== null) {
    const message = objectOf(error)?.['message'] ?? error;
    return {
      kind: 'hook',
      hook: 'post-tool-use-failure',
      payload: {
        ...base(payload, 'PostToolUseFailure'),
        ...toolFields(payload),
        error: typeof message === 'string' ? message : JSON.stringify(message),
      },
      output: 'drop',
    };
  }
  return {
    kind: 'hook',
    hook: 'post-tool-use',
    payload: {
      ...base(payload, 'PostToolUse'),
      ...toolFields(payload),
      tool_response: response?.['llmContent'] ?? payload['tool_response'],
    },
    output: 'drop',
  };
}
