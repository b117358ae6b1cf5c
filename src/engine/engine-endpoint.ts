/**
 * Finding the running engine of a home, for every client: its lock record (inside the private home), a
 * live pid, a socket that only this user can reach, and the per-install token. Loads no schema library,
 * so the forwarding hook client can use it; a hook that finds no engine has read one small file.
 *
 * Trust: the engine is found through `home/engine.lock`; a socket outside the home must sit in a
 * directory only this user can use; a token another account could read is not presented.
 */
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';

import { isPidAlive, readPidLock } from '../platform/pid-lock.js';
import { FOREIGN_ANY_BITS, privacyProblem } from '../platform/private-fs.js';
import { type EngineLockRecord, parseEngineLock } from './engine-lock.js';
import { enginePaths } from './engine-paths.js';
import { readEngineToken } from './engine-token.js';

/** Where to send requests, and the token they carry; or why there is nowhere to send them. */
export type EngineEndpoint =
  | { found: true; holder: EngineLockRecord; token: string }
  | { found: false; reason: string };

function socketTrusted(home: string, socket: string): boolean {
  if (socket.startsWith('\\\\.\\pipe\\')) return true;
  if (dirname(socket) === home) return true;
  const dir = lstatSync(dirname(socket), { throwIfNoEntry: false });
  return (
    dir !== undefined &&
    privacyProblem(dir, { kind: 'directory', forbiddenBits: FOREIGN_ANY_BITS }) === undefined
  );
}

/** The live, trusted engine of `home` and its token; never throws. */
export function findEngine(home: string): EngineEndpoint {
  try {
    const holder = readPidLock(enginePaths(home).lock, parseEngineLock);
    if (holder === undefined || !isPidAlive(holder.pid) || !socketTrusted(home, holder.socket))
      return { found: false, reason: 'no engine' };
    const token = readEngineToken(enginePaths(home).token);
    return token === undefined
      ? { found: false, reason: 'no usable token' }
      : { found: true, holder, token };
  } catch (error) {
    return { found: false, reason: String(error) };
  }
}
