/**
 * Streaming a JSON Lines file line by line with byte offsets, so an import can record exactly how far it
 * got and resume there. Bounded: a line longer than `maxLineBytes` is not buffered, only skipped up to
 * its newline and reported as too long. Read-only: the file is opened for reading and never written.
 */
import { createReadStream } from 'node:fs';

/** One line of the file. */
export interface RawLine {
  /** Byte offset of the line's first byte. */
  readonly start: number;
  /** Byte offset just past the line's newline (or past its last byte when unterminated). */
  readonly end: number;
  /** 1-based line number, counted from `firstLineNo`. */
  readonly lineNo: number;
  /** The decoded text without the newline; undefined when too long or not valid UTF-8. */
  readonly text: string | undefined;
  /** Why `text` is missing. */
  readonly problem?: 'too_long' | 'not_utf8';
  /** False for a last line without a newline: it may still be being written. */
  readonly terminated: boolean;
}

/** Where and how much to read. */
export interface ReadLinesOptions {
  /** Byte offset to start at (a line start). Default 0. */
  readonly start?: number;
  /** Byte offset to stop before (exclusive): the size seen when the read was planned. */
  readonly end?: number;
  /** The line number of the line at `start`. Default 1. */
  readonly firstLineNo?: number;
  readonly maxLineBytes: number;
  /** Skip the first line (it starts before `start`: a tail window cut into it). */
  readonly skipPartialFirst?: boolean;
}

const NEWLINE = 0x0a;

/** Yields the lines of `path` from `start` to `end`. */
export async function* readLines(path: string, options: ReadLinesOptions): AsyncGenerator<RawLine> {
  const start = options.start ?? 0;
  const end = options.end;
  if (end !== undefined && end <= start) return;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stream = createReadStream(path, {
    start,
    ...(end === undefined ? {} : { end: end - 1 }),
    highWaterMark: 1024 * 1024,
  });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let lineStart = start;
  let lineNo = options.firstLineNo ?? 1;
  let skipping = options.skipPartialFirst === true;

  const finish = (lineEnd: number, terminated: boolean): RawLine | undefined => {
    const bytes = Buffer.concat(pending, pendingBytes);
    const wasSkipping = skipping;
    const line = { start: lineStart, end: lineEnd, lineNo, terminated };
    pending = [];
    pendingBytes = 0;
    lineStart = lineEnd;
    skipping = false;
    if (wasSkipping) return undefined;
    lineNo += 1;
    if (tooLong) {
      tooLong = false;
      return { ...line, text: undefined, problem: 'too_long' };
    }
    try {
      return { ...line, text: decoder.decode(bytes) };
    } catch {
      return { ...line, text: undefined, problem: 'not_utf8' };
    }
  };

  let position = start;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const upto = newline === -1 ? chunk.length : newline;
      if (!tooLong && !skipping) {
        if (pendingBytes + (upto - from) > options.maxLineBytes) {
          tooLong = true;
          pending = [];
          pendingBytes = 0;
        } else {
          pending.push(chunk.subarray(from, upto));
          pendingBytes += upto - from;
        }
      }
      if (newline === -1) break;
      const line = finish(position + newline + 1, true);
      if (line !== undefined) yield line;
      from = newline + 1;
    }
    position += chunk.length;
  }
  if (position > lineStart) {
    const line = finish(position, false);
    if (line !== undefined) yield line;
  }
}
