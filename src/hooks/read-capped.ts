/**
 * Reading a hook payload without trusting its size: stdin is read up to a byte cap, so a 5 MB blob costs
 * one bounded pass (threat model W9). The JSON itself is parsed under a depth limit (core/text/bounded-json.ts).
 */

import { read } from 'node:fs';

/** What was read from a stream: the kept bytes, and whether more arrived than the cap allowed. */
export interface CappedBytes {
  readonly bytes: Buffer;
  readonly truncated: boolean;
  /** Bytes seen in total, including dropped ones (counted until the stream ended or was abandoned). */
  readonly seen: number;
}

/**
 * Reads `stream` until it ends, keeping at most `maxBytes`. Past the cap the rest is counted and dropped
 * rather than buffered; the read stops counting after `4 × maxBytes` so a never-ending writer cannot
 * hold the hook.
 */
export async function readCapped(
  stream: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<CappedBytes> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    seen += buffer.length;
    if (kept < maxBytes) {
      const take = buffer.subarray(0, maxBytes - kept);
      chunks.push(take);
      kept += take.length;
    }
    if (seen > maxBytes * 4) break;
  }
  return { bytes: Buffer.concat(chunks), truncated: seen > maxBytes, seen };
}

/**
 * Reads the process's stdin (fd 0) with plain `fs.read` calls under the same cap, or resolves to undefined
 * when the descriptor cannot be read that way before anything was consumed (a non-blocking pipe, a
 * closed descriptor): the caller then reads `process.stdin` as a stream. This spares a hook the stream
 * machinery (`process.stdin` on a pipe is a socket), a few milliseconds of every hook's start-up. The
 * reads are asynchronous, so the hook's deadline timer still fires while a writer holds stdin open.
 */
export async function readStdinDirect(maxBytes: number): Promise<CappedBytes | undefined> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let count: number;
    try {
      count = await readChunk(buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      if (seen === 0) return undefined;
      throw error;
    }
    if (count === 0) break;
    seen += count;
    if (kept < maxBytes) {
      const take = Buffer.from(buffer.subarray(0, Math.min(count, maxBytes - kept)));
      chunks.push(take);
      kept += take.length;
    }
    if (seen > maxBytes * 4) break;
  }
  return { bytes: Buffer.concat(chunks), truncated: seen > maxBytes, seen };
}

function readChunk(buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(0, buffer, 0, buffer.length, null, (error, count) => {
      if (error === null) resolve(count);
      else reject(error);
    });
  });
}
