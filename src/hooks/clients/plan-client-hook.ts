/**
 * What one client hook invocation becomes, from the bytes it read: mnemo's own hook of the same meaning
 * with the mapped Claude Code envelope (core/client-hooks), or nothing (an event mnemo does not answer).
 * Read under the same byte cap and depth limit as Claude Code's payloads. Free of the schemas and the
 * store, so the executable maps a client's payload before it forwards it to the engine or runs the
 * mapped hook's bundle (cli/bin.ts), as the CLI does (run-client-hook.ts).
 */
import { join } from 'node:path';

import { resolveMnemoHome } from '../../config/home.js';
import { mapCursorHook } from '../../core/client-hooks/cursor-hooks.js';
import { mapGeminiHook } from '../../core/client-hooks/gemini-hooks.js';
import {
  clientSession,
  type MappedHook,
  type MappedHookName,
  withClaimKeys,
} from '../../core/client-hooks/mapped-hook.js';
import { parseBoundedJson } from '../../core/text/bounded-json.js';
import { RESERVED_CLAIM_KEYS } from '../claim-keys.js';
import { HOOK_MAX_JSON_DEPTH } from '../hook-limits.js';
import type { CappedBytes } from '../read-capped.js';

/** A client hook to run as mnemo's hook `hook` on `input`, or one to log as not answered. */
export type ClientHookPlan =
  | {
      readonly kind: 'run';
      readonly hook: MappedHookName;
      /** The mapped envelope as the hook reads its stdin. */
      readonly input: CappedBytes;
      /** `pass`: the hook's context output goes to the client, renamed for its event; `drop`: none. */
      readonly output: 'pass' | 'drop';
    }
  | { readonly kind: 'ignore'; readonly name: string };

/** The hook events that report what entered the session: a refusal of one still taints it. */
const TOOL_EVENTS: Readonly<Record<string, readonly string[]>> = {
  cursor: ['afterMCPExecution', 'afterFileEdit', 'afterShellExecution', 'beforeReadFile'],
  gemini: ['AfterTool'],
};

/** The key each client puts its session id under. */
const SESSION_KEYS: Readonly<Record<string, string>> = {
  cursor: 'conversation_id',
  gemini: 'session_id',
};

function mapEvent(
  client: string,
  event: string,
  payload: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): MappedHook | undefined {
  if (client === 'gemini') return mapGeminiHook(event, payload);
  if (client === 'cursor') {
    // mnemo's server as install registers it with Cursor: the launcher under the mnemo home.
    const launcher = join(resolveMnemoHome(env), 'bin', 'mnemo');
    return mapCursorHook(event, payload, { ownServerCommands: [launcher] });
  }
  return undefined;
}

/**
 * The session id of a payload that could not be parsed, read only from the head of the text where the
 * client writes it, as `leadingSessionId` does for Claude Code's.
 */
function leadingClientSession(client: string, bytes: Buffer): string | undefined {
  const key = SESSION_KEYS[client];
  if (key === undefined) return undefined;
  const head = bytes.subarray(0, 1024).toString('utf8');
  const id = new RegExp(`^\\s*\\{\\s*"${key}"\\s*:\\s*"([A-Za-z0-9_.:-]{1,200})"`).exec(head)?.[1];
  return clientSession(client, id);
}

/** Maps one client hook invocation; pure but for the mnemo home it reads from `env`. Never throws. */
export function planClientHook(
  client: string,
  event: string,
  input: CappedBytes,
  env: NodeJS.ProcessEnv,
): ClientHookPlan {
  const parsed = input.truncated
    ? undefined
    : parseBoundedJson(input.bytes.toString('utf8'), HOOK_MAX_JSON_DEPTH);
  const raw =
    parsed?.ok === true && typeof parsed.value === 'object' && parsed.value !== null
      ? parsed.value
      : undefined;
  let mapped: MappedHook | undefined;
  if (raw !== undefined && !Array.isArray(raw)) {
    mapped = mapEvent(client, event, raw, env);
  } else if (TOOL_EVENTS[client]?.includes(event) === true) {
    // Unreadable tool result: fail closed. The refused envelope taints its session when its id is readable.
    const session = leadingClientSession(client, input.bytes);
    mapped = {
      kind: 'hook',
      hook: 'post-tool-use',
      payload: session === undefined ? {} : { session_id: session },
      output: 'drop',
    };
  }
  if (mapped === undefined || mapped.kind === 'ignore') {
    return { kind: 'ignore', name: `${client}:${event}` };
  }
  const payload =
    raw === undefined || Array.isArray(raw)
      ? mapped.payload
      : withClaimKeys(mapped.payload, raw, RESERVED_CLAIM_KEYS);
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  return {
    kind: 'run',
    hook: mapped.hook,
    input: { bytes, truncated: false, seen: bytes.length },
    output: mapped.output,
  };
}

/** A client's context output as it reads it: Claude Code's object, named for the client's event. */
export function clientOutput(text: string, event: string): string {
  try {
    const value = JSON.parse(text) as { hookSpecificOutput?: Record<string, unknown> };
    if (value.hookSpecificOutput !== undefined) value.hookSpecificOutput['hookEventName'] = event;
    return `${JSON.stringify(value)}\n`;
  } catch {
    // Not JSON: nothing a client could read.
    return '';
  }
}

/** Where a planned hook's output goes: to the client renamed for its event, or nowhere. */
export function clientStdout(
  plan: Extract<ClientHookPlan, { kind: 'run' }>,
  event: string,
  stdout: { write(text: string): unknown },
): { write(text: string): unknown } {
  return {
    write: (text: string) => {
      if (plan.output === 'pass') stdout.write(clientOutput(text, event));
    },
  };
}
