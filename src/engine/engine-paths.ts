/**
 * Where the resident engine keeps its state. Everything lives in `$MNEMO_HOME` except, when the home path
 * is long, the Unix socket: `sun_path` holds at most 104 bytes on macOS and 108 on Linux (terminating NUL
 * included), so a socket path over {@link MAX_SOCKET_PATH_BYTES} moves to a private directory under the
 * OS temp dir, named by a hash of the home. The lock file records the socket path the engine bound, and
 * clients read it from there, so both sides agree even if their temp dirs differ.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { currentUid } from '../platform/private-fs.js';

/** Longest socket path used: the macOS limit (104 bytes with the NUL), which also fits Linux's 108. */
export const MAX_SOCKET_PATH_BYTES = 103;

/** The engine's files for one home. */
export interface EnginePaths {
  /** `home/engine.lock`: pid, start time, nonce, socket path and version of the running engine. */
  lock: string;
  /** `home/engine.token`: the per-install secret every request presents (mode 0600). */
  token: string;
  /** Where the engine listens; see {@link socketPathFor}. */
  socket: string;
  /** The private directory holding a relocated socket, or undefined when it lives in the home. */
  socketDir: string | undefined;
  /** `home/engine.starting`: when a background start was last attempted (spawn rate limit). */
  starting: string;
}

/** The paths of the engine of `home` (absolute). `tmp` and `platform` are seams for tests. */
export function enginePaths(
  home: string,
  options: { tmp?: string; platform?: NodeJS.Platform } = {},
): EnginePaths {
  const { socket, socketDir } = socketPathFor(home, options);
  return {
    lock: join(home, 'engine.lock'),
    token: join(home, 'engine.token'),
    socket,
    socketDir,
    starting: join(home, 'engine.starting'),
  };
}

/**
 * The socket of `home`: `home/engine.sock` when it fits in {@link MAX_SOCKET_PATH_BYTES}, else
 * `<tmp>/mnemo-<uid>/<hash of home>.sock`. Windows uses a named pipe keyed the same way.
 */
export function socketPathFor(
  home: string,
  options: { tmp?: string; platform?: NodeJS.Platform } = {},
): { socket: string; socketDir: string | undefined } {
  // Hashed only when needed: a hook that just reads the lock never loads node:crypto for it.
  const key = () => createHash('sha256').update(home).digest('hex').slice(0, 16);
  if ((options.platform ?? process.platform) === 'win32') {
    return { socket: `\\\\.\\pipe\\mnemo-${key()}`, socketDir: undefined };
  }
  const inHome = join(home, 'engine.sock');
  if (Buffer.byteLength(inHome) <= MAX_SOCKET_PATH_BYTES)
    return { socket: inHome, socketDir: undefined };
  const dirName = `mnemo-${currentUid() ?? 'user'}`;
  for (const base of [options.tmp ?? tmpdir(), '/tmp']) {
    const socketDir = join(base, dirName);
    const socket = join(socketDir, `${key()}.sock`);
    if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES) return { socket, socketDir };
  }
  // A temp dir this long is unusual; /tmp always fits (about 40 bytes).
  const socketDir = join('/tmp', dirName);
  return { socket: join(socketDir, `${key()}.sock`), socketDir };
}
