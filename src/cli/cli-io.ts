/**
 * The CLI's contact with the process: streams, environment and working directory, passed in so tests
 * can drive commands in-process with real streams. Also the strict input decoding every command that
 * reads bytes goes through.
 */
import { MemoryError } from '../core/errors.js';

/** A writable text stream, like `process.stdout`. */
export interface OutputStream {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface CliIo {
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The real process. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Writes and waits for the stream to drain when it asks to (large exports into a slow pipe). */
export async function writeOut(stream: OutputStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}

/** Reads a stream to its end as bytes. */
export async function readAllBytes(stream: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * Decodes UTF-8 strictly: invalid bytes are refused instead of silently becoming U+FFFD, which would
 * store something other than what the user gave. A leading byte-order mark is dropped.
 * Throws INVALID_INPUT naming `source`.
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${source} is not valid UTF-8. Convert it first (for example \`iconv -f latin1 -t utf-8\`), or store a file path instead of binary data.`,
      { cause: error },
    );
  }
}
