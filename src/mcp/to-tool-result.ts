/**
 * The MCP error boundary (architecture §2.4): the one function that turns an error raised inside a tool
 * into what the model sees. Bad argument types never get here (the SDK rejects them against the input
 * schema). A `MemoryError` the model can fix becomes an `isError` result with the domain's actionable
 * message; a transient store condition asks for a retry; anything else is a server fault: its stack is
 * logged and the model gets a generic text, never a message that blames its input.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { isMemoryError, type MemoryErrorCode } from '../core/errors.js';
import type { Logger } from '../log/log.js';

/** Codes whose message tells the caller how to change the request. */
const CALLER_CODES: ReadonlySet<MemoryErrorCode> = new Set([
  'INVALID_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'UNSUPPORTED',
]);

/** Codes that usually clear by themselves: another process holds the lock, a slow disk, a model load. */
const TRANSIENT_CODES: ReadonlySet<MemoryErrorCode> = new Set([
  'STORE_BUSY',
  'STORE_UNAVAILABLE',
  'TIMEOUT',
  'EMBEDDING_FAILED',
]);

/** An `isError` result carrying one text block. */
export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Translates an error thrown while running `tool`. Logs every case; never throws. */
export function toToolResult(
  error: unknown,
  context: { tool: string; log: Logger },
): CallToolResult {
  const { tool, log } = context;
  if (isMemoryError(error)) {
    log.warn('mcp tool refused', { tool, code: error.code, msg: error.message });
    if (CALLER_CODES.has(error.code)) return errorResult(error.message);
    if (TRANSIENT_CODES.has(error.code)) {
      return errorResult(
        `The memory store is temporarily unavailable (${error.code}). Retry \`${tool}\` in a few seconds; ` +
          'if it keeps failing, continue without memory and tell the user to run `mnemo stats`.',
      );
    }
    // SCHEMA_TOO_NEW, STORE_CORRUPT, MIGRATION_FAILED, CONFIG_INVALID: the user must act; retrying won't help.
    return errorResult(
      `mnemo cannot serve \`${tool}\` until the user fixes its setup (${error.code}): ${error.message} ` +
        'Continue without memory and tell the user.',
    );
  }
  log.error('mcp tool failed', {
    tool,
    stack: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return errorResult(
    `mnemo hit an internal error while running \`${tool}\`; it has been logged. ` +
      'This is not a problem with your arguments. Continue without memory for now.',
  );
}
