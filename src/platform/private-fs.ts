/**
 * File-system checks and writes for state only this user may touch: the engine's lock, token and socket
 * directory, and the capture spool. A file or directory that another account could have written is
 * never trusted (threat model principle 10: security fails closed), and every file that must survive a
 * crash is written to a temporary name, fsync'd, renamed into place and its directory fsync'd.
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

import { MemoryError } from '../core/errors.js';

/** Group and other write bits: whoever holds them could plant or change content. */
export const FOREIGN_WRITE_BITS = 0o022;
/** Every group and other bit: for secrets (the token) and the socket directory. */
export const FOREIGN_ANY_BITS = 0o077;

/** This process's user id, or undefined where the platform has none (Windows: checks are skipped). */
export function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * Why `stat` is not private to this user, or undefined when it is: the wrong type, a symbolic link,
 * another owner, or any of `forbiddenBits` set.
 */
export function privacyProblem(
  stat: Stats,
  expect: { kind: 'file' | 'directory'; forbiddenBits: number },
): string | undefined {
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (expect.kind === 'file' && !stat.isFile()) return 'is not a regular file';
  if (expect.kind === 'directory' && !stat.isDirectory()) return 'is not a directory';
  const uid = currentUid();
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return `is owned by uid ${stat.uid}, not ${uid}`;
  const bits = stat.mode & expect.forbiddenBits;
  if (bits !== 0)
    return `has mode ${(stat.mode & 0o777).toString(8)} (group/other bits ${bits.toString(8)})`;
  return undefined;
}

/**
 * Creates `dir` (mode 0700, parents as needed) unless it exists, then checks that it is a directory of
 * this user without the `forbiddenBits`. Throws CHECK_FAILED naming the fix.
 */
export function ensurePrivateDir(dir: string, forbiddenBits = FOREIGN_WRITE_BITS): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new MemoryError(
      'CHECK_FAILED',
      `Cannot create ${dir} (${(error as Error).message}). Check the permissions of its parent directory.`,
      { cause: error },
    );
  }
  const problem = privacyProblem(lstatSync(dir), { kind: 'directory', forbiddenBits });
  if (problem !== undefined) {
    throw new MemoryError(
      'CHECK_FAILED',
      `${dir} ${problem}; mnemo keeps its engine and spool state only in directories that no other ` +
        `account can write. Run \`chmod 700 ${dir}\` (and make sure you own it), or remove it.`,
    );
  }
}

/** fsyncs a directory so a rename or unlink inside it survives a crash. Best effort where unsupported. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename itself is still atomic.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `data` to a new file `tmpPath` (mode `mode`, exclusive create) and fsyncs it. The caller then
 * publishes it with a rename or a link, so readers never see a partial file.
 */
export function writeNewFileSynced(tmpPath: string, data: string | Buffer, mode: number): void {
  const fd = openSync(tmpPath, 'wx', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmpPath, { force: true });
    throw error;
  }
  closeSync(fd);
}

/** Replaces `path` atomically with `data` (temporary file, fsync, rename, fsync of the directory). */
export function replaceFileDurably(
  path: string,
  data: string,
  mode: number,
  tmpPath: string,
): void {
  writeNewFileSynced(tmpPath, data, mode);
  try {
    renameSync(tmpPath, path);
  } catch (error) {
    rmSync(tmpPath, { force: true });
    throw error;
  }
  fsyncDir(dirname(path));
}
