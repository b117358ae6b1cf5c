/**
 * Origin classification from the out-of-band envelope. The envelope carries the channel a piece of text came
 * through (hook event, tool name, MCP server, CLI) and deliberately has no field for the text itself: no
 * payload can influence the class, which is the product's central security property.
 */
import { leastTrusted, type OriginClass, parseOriginClass } from './origin-class.js';
import { builtinToolClass, parseToolName } from './tool-names.js';

/**
 * Where a write came from, as the host or our own edge observed it — never as the content claims.
 * `mcp_remember.tainted` must be `true` when the session cannot be identified (fail closed).
 */
export type OriginEnvelope =
  | { channel: 'cli' }
  | { channel: 'web' }
  | { channel: 'user_prompt' }
  | { channel: 'mcp_remember'; tainted: boolean }
  | { channel: 'tool'; toolName: string }
  /**
   * A memory mnemo derived from other text (a session checkpoint): its class is the least trusted of
   * `sources` (threat model W10), so deriving never raises trust. No sources, or a malformed list, is
   * `unknown`.
   */
  | { channel: 'derived'; sources: readonly OriginClass[] };

/** The channel names of {@link OriginEnvelope}. */
export type Channel = OriginEnvelope['channel'];

/** Classes a config may give an MCP tool. An MCP tool is never a human or the agent itself. */
export const DECLARABLE_MCP_CLASSES = [
  'local_edit',
  'local_read',
  'local_exec',
  'network',
  'unknown',
] as const satisfies readonly OriginClass[];
/** A class a config may declare for an MCP tool or server. */
export type DeclarableMcpClass = (typeof DECLARABLE_MCP_CLASSES)[number];

/** The part of the user's configuration that classification reads. */
export interface OriginConfig {
  /**
   * MCP tools by class, keyed `mcp__<server>__<tool>` or `mcp__<server>__*` for a whole server. Keys are
   * normalised like tool names; an exact tool entry wins over its server wildcard. Undeclared → `unknown`.
   */
  readonly mcpTools?: Readonly<Record<string, DeclarableMcpClass>>;
  /** Extra server names that are mnemo itself (the defaults are always included). */
  readonly ownServers?: readonly string[];
}

/** No MCP tool declared: every MCP tool classifies as `unknown`. */
export const EMPTY_ORIGIN_CONFIG: OriginConfig = Object.freeze({});

/** Our own MCP server, plain and as bundled by our plugin. Its output is memory, not a content source. */
export const OWN_MCP_SERVERS: readonly string[] = ['mnemo', 'plugin_mnemo_mnemo'];

/** Why an envelope got its class; for logs and the explain view. */
export type OriginReason =
  | 'human_channel'
  | 'remember_untainted'
  | 'remember_tainted'
  | 'derived_least_trusted'
  | 'builtin_tool'
  | 'unrecognised_tool'
  | 'invalid_tool_name'
  | 'own_server'
  | 'declared_mcp_tool'
  | 'declared_mcp_server'
  | 'undeclared_mcp_tool'
  | 'invalid_envelope';

/** A class together with the rule that produced it. */
export interface OriginExplanation {
  readonly origin: OriginClass;
  readonly reason: OriginReason;
}

function serverKey(server: string): string {
  const parsed = parseToolName(`mcp__${server}__x`);
  return parsed.kind === 'mcp' ? parsed.server : '';
}

function isDeclarable(value: unknown): value is DeclarableMcpClass {
  return (DECLARABLE_MCP_CLASSES as readonly unknown[]).includes(value);
}

function declaredMcpClasses(config: OriginConfig): Map<string, OriginClass> {
  const table = new Map<string, OriginClass>();
  for (const [rawKey, rawClass] of Object.entries(config.mcpTools ?? {})) {
    const parsed = parseToolName(rawKey);
    if (parsed.kind !== 'mcp') continue;
    // A config value from JSON may be anything; outside the declarable set it grants nothing.
    const declared: OriginClass = isDeclarable(rawClass) ? rawClass : 'unknown';
    const previous = table.get(parsed.key);
    // Two spellings of one key with different classes: keep the less trusted, never pick silently upward.
    table.set(parsed.key, previous === undefined ? declared : leastTrusted([previous, declared]));
  }
  return table;
}

/** True when the tool belongs to mnemo's own MCP server (capture should skip it: it is our own output). */
export function isOwnTool(toolName: string, config: OriginConfig = EMPTY_ORIGIN_CONFIG): boolean {
  const parsed = parseToolName(toolName);
  if (parsed.kind !== 'mcp') return false;
  const own = [...OWN_MCP_SERVERS, ...(config.ownServers ?? [])].map(serverKey);
  return own.includes(parsed.server);
}

function explainTool(toolName: unknown, config: OriginConfig): OriginExplanation {
  if (typeof toolName !== 'string') return { origin: 'unknown', reason: 'invalid_envelope' };
  const parsed = parseToolName(toolName);
  if (parsed.kind === 'invalid') return { origin: 'unknown', reason: 'invalid_tool_name' };
  if (parsed.kind === 'builtin') {
    const origin = builtinToolClass(toolName);
    return origin === undefined
      ? { origin: 'unknown', reason: 'unrecognised_tool' }
      : { origin, reason: 'builtin_tool' };
  }
  // Checked before the config so no declaration can turn our own recall output into a content source.
  if (isOwnTool(toolName, config)) return { origin: 'unknown', reason: 'own_server' };
  const declared = declaredMcpClasses(config);
  const exact = declared.get(parsed.key);
  if (exact !== undefined) return { origin: exact, reason: 'declared_mcp_tool' };
  const server = declared.get(`mcp__${parsed.server}__*`);
  if (server !== undefined) return { origin: server, reason: 'declared_mcp_server' };
  return { origin: 'unknown', reason: 'undeclared_mcp_tool' };
}

/**
 * Classifies an envelope and says which rule applied. Total: any input, including malformed runtime data,
 * yields a class in the vocabulary, and everything unrecognised is `unknown`.
 */
export function explainOrigin(envelope: OriginEnvelope, config: OriginConfig): OriginExplanation {
  // Runtime data may not match the type; read the fields defensively.
  const value = envelope as unknown as Record<string, unknown> | null | undefined;
  switch (value?.['channel']) {
    case 'cli':
    case 'web':
    case 'user_prompt':
      return { origin: 'user', reason: 'human_channel' };
    case 'mcp_remember':
      // Only an explicit `false` is untainted: a missing or malformed flag is treated as tainted.
      return value['tainted'] === false
        ? { origin: 'agent', reason: 'remember_untainted' }
        : { origin: 'agent_tainted', reason: 'remember_tainted' };
    case 'tool':
      return explainTool(value['toolName'], config ?? EMPTY_ORIGIN_CONFIG);
    case 'derived': {
      const sources = value['sources'];
      if (!Array.isArray(sources)) return { origin: 'unknown', reason: 'invalid_envelope' };
      // parseOriginClass: a value outside the vocabulary counts as `unknown`, never as a guess.
      return {
        origin: leastTrusted(sources.map((source) => parseOriginClass(source))),
        reason: 'derived_least_trusted',
      };
    }
    default:
      return { origin: 'unknown', reason: 'invalid_envelope' };
  }
}

/** The origin class of an envelope. See {@link explainOrigin} for the rule that produced it. */
export function classifyOrigin(envelope: OriginEnvelope, config: OriginConfig): OriginClass {
  return explainOrigin(envelope, config).origin;
}
