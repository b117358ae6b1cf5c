import { describe, expect, it } from 'vitest';

import { MemoryError, type MemoryErrorCode } from '../core/errors.js';
import { createLogger, type LogFields } from '../log/log.js';
import { toToolResult } from './to-tool-result.js';

function recordingLog(): {
  log: ReturnType<typeof createLogger>;
  lines: [string, string, LogFields?][];
} {
  const lines: [string, string, LogFields?][] = [];
  const log = createLogger({ level: 'debug', clock: { now: () => new Date(0) } });
  log.write = (level, message, fields) => void lines.push([level, message, fields]);
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    log[level] = (message, fields) => log.write(level, message, fields);
  }
  return { log, lines };
}

function textOf(result: ReturnType<typeof toToolResult>): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe('toToolResult', () => {
  const table: [MemoryErrorCode, 'message' | 'retry' | 'setup'][] = [
    ['INVALID_INPUT', 'message'],
    ['NOT_FOUND', 'message'],
    ['CONFLICT', 'message'],
    ['UNSUPPORTED', 'message'],
    ['STORE_BUSY', 'retry'],
    ['STORE_UNAVAILABLE', 'retry'],
    ['TIMEOUT', 'retry'],
    ['EMBEDDING_FAILED', 'retry'],
    ['SCHEMA_TOO_NEW', 'setup'],
    ['STORE_CORRUPT', 'setup'],
    ['MIGRATION_FAILED', 'setup'],
    ['CONFIG_INVALID', 'setup'],
  ];

  it.each(table)('maps MemoryError %s to an isError result (%s)', (code, kind) => {
    const { log, lines } = recordingLog();
    const result = toToolResult(new MemoryError(code, 'Do the specific thing.'), {
      tool: 'recall',
      log,
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    if (kind === 'message') expect(text).toBe('Do the specific thing.');
    if (kind === 'retry') {
      expect(text).toContain(`temporarily unavailable (${code})`);
      expect(text).toContain('Retry `recall`');
    }
    if (kind === 'setup') {
      expect(text).toContain(`(${code}): Do the specific thing.`);
      expect(text).toContain('tell the user');
    }
    expect(lines).toEqual([
      ['warn', 'mcp tool refused', { tool: 'recall', code, msg: 'Do the specific thing.' }],
    ]);
  });

  it('answers an unknown error with a generic text and logs its stack', () => {
    const { log, lines } = recordingLog();
    const error = new TypeError('cannot read properties of undefined (secret internals)');
    const result = toToolResult(error, { tool: 'remember', log });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('internal error while running `remember`');
    expect(textOf(result)).toContain('not a problem with your arguments');
    expect(textOf(result)).not.toContain('secret internals');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe('error');
    expect(String(lines[0]?.[2]?.['stack'])).toContain('secret internals');
  });

  it('treats a thrown non-error value as a server fault', () => {
    const { log, lines } = recordingLog();
    const result = toToolResult('boom', { tool: 'forget', log });
    expect(textOf(result)).toContain('internal error');
    expect(lines[0]?.[2]).toEqual({ tool: 'forget', stack: 'boom' });
  });
});
