/**
 * The logger. Lines go to a file (`$MNEMO_HOME/logs/mnemo.log`, JSON per line) and, for an interactive
 * `--verbose` run, to stderr. Never to stdout: stdout carries command output, MCP frames and hook
 * context. Every line passes through `write`, the single choke point, which redacts secrets from the
 * message and from every string inside the fields (keys included) before anything is written.
 *
 * Writes are synchronous: mnemo processes are short-lived, and a line buffered at exit would be lost.
 * A logger never throws: a full disk must not turn a working command into a failing one.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

import type { LogLevel } from '../config/config.js';
import { redactSecrets } from '../core/redact/redact-secrets.js';
import type { Clock } from '../ports/clock.js';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The choke point every line goes through. */
  write(level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields): void;
}

/** Something that accepts text, like `process.stderr`. */
export interface TextSink {
  write(text: string): unknown;
}

export interface LoggerOptions {
  /** Log file path; omitted → no file. */
  file?: string;
  /** Lines below this level are dropped from the file. */
  level: LogLevel;
  /** A human-readable copy of each line at or above `stderrLevel` (the CLI's `--verbose`). */
  stderr?: TextSink;
  stderrLevel?: LogLevel;
  clock: Clock;
  /** Rotate when the file would exceed this size: `mnemo.log` → `mnemo.log.1` → … */
  maxBytes?: number;
  /** Rotated files kept. */
  keep?: number;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** A logger that drops everything (tests and tools that must stay quiet). */
export const silentLogger: Logger = createLogger({
  level: 'silent',
  clock: { now: () => new Date(0) },
});

/** Creates a logger. Failures to write the file disable file logging and are reported once on `stderr`. */
export function createLogger(options: LoggerOptions): Logger {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 3;
  const stderrLevel = options.stderrLevel ?? 'silent';
  let file = options.file;
  let size: number | undefined;

  const toFile = (line: string): void => {
    if (file === undefined) return;
    try {
      if (size === undefined) {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        size = fileSize(file);
      }
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) {
        rotate(file, keep);
        size = 0;
      }
      appendFileSync(file, line, { mode: 0o600 });
      size += bytes;
    } catch (error) {
      options.stderr?.write(
        `mnemo: logging to ${file} stopped: ${(error as Error).message}. Check the directory's permissions and free space.\n`,
      );
      file = undefined;
    }
  };

  const write: Logger['write'] = (level, rawMessage, rawFields) => {
    const toFileLevel = ORDER[level] >= ORDER[options.level];
    const toStderrLevel = options.stderr !== undefined && ORDER[level] >= ORDER[stderrLevel];
    // A line no sink keeps costs nothing: redaction scans every string, and hooks log at debug level.
    if (!toFileLevel && !toStderrLevel) return;
    const at = options.clock.now().toISOString();
    const message = redactText(rawMessage);
    const fields = rawFields === undefined ? undefined : (redactValue(rawFields, 0) as LogFields);
    if (toFileLevel) {
      toFile(`${JSON.stringify({ at, level, msg: message, ...fields })}\n`);
    }
    if (options.stderr !== undefined && toStderrLevel) {
      const extra = fields === undefined ? '' : ` ${JSON.stringify(fields)}`;
      options.stderr.write(`[${level}] ${message}${extra}\n`);
    }
  };

  return {
    write,
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

/** Log lines are diagnostics: a bounded slice of each string is enough, and bounds the scan cost. */
const MAX_LOG_STRING = 8192;
const MAX_DEPTH = 6;

function redactText(text: unknown): string {
  const value = typeof text === 'string' ? text : String(text);
  return redactSecrets(value.length > MAX_LOG_STRING ? `${value.slice(0, MAX_LOG_STRING)}…` : value)
    .text;
}

/**
 * Redacts every string in a field value. Errors become their message (and stack), which is where a failing
 * driver may echo the SQL parameters; anything nested deeper than the cap is replaced, never written raw.
 */
function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' || typeof value === 'symbol'
      ? redactText(String(value))
      : value;
  }
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message), stack: redactText(value.stack) };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[redactText(key)] = redactValue(item, depth + 1);
  return out;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function rotate(file: string, keep: number): void {
  if (keep < 1) {
    rmSync(file, { force: true });
    return;
  }
  rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) {
    try {
      renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    } catch {
      // A gap in the sequence (never rotated that far yet) is normal.
    }
  }
  renameSync(file, `${file}.1`);
}
