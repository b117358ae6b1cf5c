/**
 * The engine protocol's framing, without its schemas: the version, the line limits, the line splitter
 * and one request/response exchange over the socket. Dependency-free, so the forwarding hook client
 * (hooks/forward-hook.ts), which runs in every hook process, loads none of valibot or the schemas;
 * engine-protocol.ts holds the schemas and engine-call.ts the typed calls.
 */

/** The protocol version this build speaks. */
export const ENGINE_PROTOCOL_VERSION = 1;
/**
 * Largest request line, newline excluded. A recall query with filters is a few KiB; a handed-off capture
 * carries up to 128k characters of text before redaction, JSON-escaped.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Largest response line a client reads (1000 hits of 32 KiB memories would not fit; 1000 captures do). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Longest hook output the engine returns: a pack within the injection budget, JSON-escaped. */
export const MAX_INJECT_OUTPUT_CHARS = 256 * 1024;

/**
 * The hooks a running engine answers whole (`hook`): the hook process forwards its stdin and prints the
 * answer. The others (pre-compact, session-end: once per session) run in the hook process as before.
 */
export const FORWARDED_HOOK_EVENTS = [
  'session-start',
  'user-prompt-submit',
  'post-tool-use',
  'post-tool-use-failure',
  'pre-tool-use',
] as const;
/** A hook the engine answers whole. */
export type ForwardedHookEvent = (typeof FORWARDED_HOOK_EVENTS)[number];

/**
 * Splits a byte stream into lines, holding at most `maxBytes` of an unfinished line. Once a line is
 * longer, `overflow` is set and the caller must answer TOO_LARGE and drop the connection.
 */
export class LineBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  overflow = false;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk; returns the complete lines it finished (without the newline). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, nl);
      if (this.pendingBytes + part.length > this.maxBytes) {
        this.overflow = true;
        return lines;
      }
      lines.push(Buffer.concat([...this.pending, part]).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxBytes) {
      this.overflow = true;
      return lines;
    }
    if (rest.length > 0) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }
}

/** One exchange's outcome: the parsed response line, or why not and whether any request byte left. */
export type Exchange = { json: unknown } | { failure: string; sent: boolean };

/** Writes `line` to the socket at `path`, reads one response line; never throws. */
export async function exchangeLine(
  path: string,
  line: string,
  timeoutMs: number,
): Promise<Exchange> {
  // Loaded here, not at the top: a hook that finds no engine never needs the socket module.
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(path);
    const lines = new LineBuffer(MAX_RESPONSE_BYTES);
    let settled = false;
    let sent = false;
    const finish = (value: { json: unknown } | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(typeof value === 'string' ? { failure: value, sent } : value);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.once('connect', () => {
      sent = true;
      socket.write(line);
    });
    socket.on('data', (chunk: Buffer) => {
      const [first] = lines.push(chunk);
      if (lines.overflow) return finish('response too large');
      if (first === undefined) return;
      try {
        finish({ json: JSON.parse(first) });
      } catch {
        finish('response not JSON');
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'socket error'));
    socket.once('close', () => finish('closed'));
  });
}
