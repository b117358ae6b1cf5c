/**
 * File primitives of the installer: read bytes, hash, back up, replace atomically with the file's mode
 * kept, and remove. Writes go through the real path, so a settings file that is a symlink (a dotfile
 * manager's) stays a symlink.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';

/** The file's bytes, or undefined when it does not exist. */
export function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemoryError('INVALID_INPUT', `Cannot read ${path}: ${(error as Error).message}.`, {
      cause: error,
    });
  }
}

/** Hex SHA-256 of `bytes`. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The path writes go to: the symlink's target when `path` is one, else `path`. */
export function realTarget(path: string): string {
  return existsSync(path) ? realpathSync(path) : path;
}

/**
 * Copies `path` to `<path>.mnemo-backup-<stamp>` with the same mode and returns the backup's path. Never
 * overwrites an existing backup.
 */
export function backup(path: string, stamp: string): string {
  for (let n = 0; ; n++) {
    const target = `${path}.mnemo-backup-${stamp}${n === 0 ? '' : `-${n}`}`;
    try {
      copyFileSync(path, target, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    chmodSync(target, statSync(path).mode & 0o7777);
    return target;
  }
}

/**
 * Replaces `path` with `bytes` atomically: a temporary file in the same directory, flushed, given the
 * old file's mode (or `newMode`), then renamed over it. Creates missing parent directories and returns
 * the ones it created, outermost first.
 */
export function writeAtomic(path: string, bytes: Uint8Array, newMode = 0o644): string[] {
  const dir = dirname(path);
  const createdDirs = missingDirs(dir);
  if (createdDirs.length > 0) mkdirSync(dir, { recursive: true });
  const mode = existsSync(path) ? statSync(path).mode & 0o7777 : newMode;
  const temp = join(
    dir,
    `.${basename(path)}.mnemo-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return createdDirs;
}

/** Deletes `path`. */
export function removeFile(path: string): void {
  unlinkSync(path);
}

function missingDirs(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  return missing;
}
