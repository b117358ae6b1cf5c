/**
 * Recognising mnemo's own MCP tools in a hook envelope: plain (`mcp__mnemo__remember`), bundled by our
 * plugin (`mcp__plugin_mnemo_mnemo__remember`), or bundled under another plugin name
 * (`mcp__plugin_<plugin>_mnemo__remember`, integration reference §4.3).
 */
import { reverifyClaimText } from '../anchors/reverify-claim.js';
import { isOwnTool, type OriginConfig } from './classify-origin.js';
import { parseToolName } from './tool-names.js';

/** True for a tool of mnemo's MCP server in any of its three spellings. */
export function isMnemoTool(toolName: string, config: OriginConfig): boolean {
  if (isOwnTool(toolName, config)) return true;
  const parsed = parseToolName(toolName);
  // Normalised server segments drop `_`/`-`: `plugin_acme_mnemo` → `pluginacmemnemo`.
  return (
    parsed.kind === 'mcp' && parsed.server.startsWith('plugin') && parsed.server.endsWith('mnemo')
  );
}

/**
 * mnemo's MCP tools whose effect depends on the session's taint: the three that write model-supplied
 * `content`, and `reverify_memory`, which vouches for a memory. Each call needs a remember claim so the
 * server can learn its session and taint. Without one the call fails closed to `agent_tainted`.
 */
export const CLAIMING_TOOLS = [
  'remember',
  'supersede_memory',
  'checkpoint',
  'reverify_memory',
] as const;

/**
 * The text a call's claim is keyed by: the `content` it writes, or for `reverify_memory` the id it vouches
 * for (`reverifyClaimText`). Undefined when the argument is missing or not text.
 */
export function claimTextOf(
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
): unknown {
  const parsed = parseToolName(toolName);
  if (parsed.kind === 'mcp' && parsed.tool === 'reverifymemory') {
    const id = Object.hasOwn(toolInput, 'id') ? toolInput['id'] : undefined;
    return typeof id === 'string' && id.length <= 64 ? reverifyClaimText(id) : undefined;
  }
  return Object.hasOwn(toolInput, 'content') ? toolInput['content'] : undefined;
}

/** True for one of mnemo's content-writing tools: the calls the taint link (remember claims) is about. */
export function isRememberTool(toolName: string, config: OriginConfig): boolean {
  const parsed = parseToolName(toolName);
  // parseToolName normalises away `_`, so compare against normalised names.
  const claiming = CLAIMING_TOOLS.map((tool) => tool.replaceAll('_', ''));
  return parsed.kind === 'mcp' && claiming.includes(parsed.tool) && isMnemoTool(toolName, config);
}
