/**
 * `mnemo hook --client <id> <event>`: the entry point of another client's hooks. The client's payload is
 * read under the same byte cap and depth limit as Claude Code's, mapped onto the Claude Code envelope of
 * the same meaning (core/client-hooks), and run through mnemo's own hook of that name (run-hook.ts), so
 * the channel-origin rules, fail-closed allowlists, taint, capture policy, redaction, spool and engine
 * hand-off are the ones Claude Code gets. Never throws; exits 0; prints only context the client reads.
 */
import { join } from 'node:path';

import { resolveMnemoHome } from '../../config/home.js';
import { mapCursorHook } from '../../core/client-hooks/cursor-hooks.js';
import { mapGeminiHook } from '../../core/client-hooks/gemini-hooks.js';
import {
  clientSession,
  type MappedHook,
  withClaimKeys,
} from '../../core/client-hooks/mapped-hook.js';
import { parseBoundedJson } from '../../core/text/bounded-json.js';
import { RESERVED_CLAIM_KEYS } from '../hook-input.js';
import { HOOK_MAX_INPUT_BYTES, HOOK_MAX_JSON_DEPTH } from '../hook-limits.js';
import { loadHookEntry } from '../hook-specs.js';
import { readCapped } from '../read-capped.js';
import { reportUnknownHook, runHook } from '../run-hook.js';

/** The process seams of a client hook. */
export interface ClientHookIo {
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

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

/** A client's context output as it reads it: Claude Code's object, named for the client's event. */
function clientOutput(text: string, event: string): string {
  try {
    const value = JSON.parse(text) as { hookSpecificOutput?: Record<string, unknown> };
    if (value.hookSpecificOutput !== undefined) value.hookSpecificOutput['hookEventName'] = event;
    return `${JSON.stringify(value)}\n`;
  } catch {
    // Not JSON: nothing a client could read.
    return '';
  }
}

/** Runs one client hook; never throws, prints nothing it was not meant to. */
export async function runClientHook(
  client: string,
  event: string,
  io: ClientHookIo,
): Promise<void> {
  const input = await readCapped(io.stdin, HOOK_MAX_INPUT_BYTES);
  const parsed = input.truncated
    ? undefined
    : parseBoundedJson(input.bytes.toString('utf8'), HOOK_MAX_JSON_DEPTH);
  const raw =
    parsed?.ok === true && typeof parsed.value === 'object' && parsed.value !== null
      ? parsed.value
      : undefined;
  let mapped: MappedHook | undefined;
  if (raw !== undefined && !Array.isArray(raw)) {
    mapped = mapEvent(client, event, raw, io.env);
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
    reportUnknownHook(`${client}:${event}`, io.env);
    return;
  }
  const entry = await loadHookEntry(mapped.hook);
  if (entry === undefined) {
    reportUnknownHook(`${client}:${event}`, io.env);
    return;
  }
  const payload =
    raw === undefined ? mapped.payload : withClaimKeys(mapped.payload, raw, RESERVED_CLAIM_KEYS);
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const output = mapped.output;
  await runHook(entry.spec, {
    input: Promise.resolve({ bytes, truncated: false, seen: bytes.length }),
    stdout: {
      write: (text: string) => {
        if (output === 'pass') io.stdout.write(clientOutput(text, event));
      },
    },
    env: io.env,
  });
}
