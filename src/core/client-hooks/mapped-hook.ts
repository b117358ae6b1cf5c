/**
 * What another client's hook event becomes: the Claude Code hook envelope of the same meaning, run
 * through mnemo's own hook of that name, so origin, taint, capture policy, redaction and the write gate
 * are exactly Claude Code's. A mapper reads only the client's envelope (its event name, tool name and
 * the fields that say which server or file), never the tool's output, to decide; every tool name it does
 * not know is renamed into the client's own namespace so it can never land on a privileged Claude Code
 * name and is classed `unknown` (taints, no privilege). Pure.
 */
/** The mnemo hooks a client event can map onto. */
export type MappedHookName =
  | 'post-tool-use'
  | 'post-tool-use-failure'
  | 'pre-tool-use'
  | 'session-start'
  | 'user-prompt-submit';

/** A client event mnemo handles, or one it ignores (logged with the reason). */
export type MappedHook =
  | {
      readonly kind: 'hook';
      readonly hook: MappedHookName;
      /** The Claude Code envelope, validated by the hook's own schema like any other payload. */
      readonly payload: Record<string, unknown>;
      /** `pass`: the hook's context output is what the client reads; `drop`: the client reads none. */
      readonly output: 'pass' | 'drop';
    }
  | { readonly kind: 'ignore'; readonly reason: string };

/** An event mnemo does not answer. */
export function ignore(reason: string): MappedHook {
  return { kind: 'ignore', reason };
}

/** The value of `key` when it is a non-empty string. */
export function stringField(payload: Record<string, unknown>, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * A client's session id in mnemo's session namespace (`cursor:<id>`), so two clients' sessions never
 * share taint. Undefined stays undefined: the hook's schema then refuses the payload (fail closed).
 */
export function clientSession(client: string, id: string | undefined): string | undefined {
  return id === undefined ? undefined : `${client}:${id}`;
}

/**
 * `payload` plus every privilege-claim key (`keys`, the hook schemas' reserved list) the client's payload
 * carried, unchanged: a client never sends them, so their presence means a forged payload, and the hook's
 * schema refuses it just as it refuses a forged Claude Code payload (threat model W4; a refused tool
 * result still taints its session).
 */
export function withClaimKeys(
  payload: Record<string, unknown>,
  source: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const out = { ...payload };
  for (const key of keys) if (Object.hasOwn(source, key)) out[key] = source[key];
  return out;
}

/** A tool name outside the mapper's allowlist, kept recognisable and out of every known namespace. */
export function foreignToolName(client: string, name: string): string {
  return `${client}:${name}`;
}

/** A JSON object given as an object or as JSON text (Cursor passes MCP arguments as a string). */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}
