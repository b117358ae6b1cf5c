/**
 * V8's code cache for the hook bundles, on every Node version (`vm.Script` `cachedData`; Node 20 has no
 * `module.enableCompileCache`). A hook compiles its 90–160 KiB bundle (and, on the direct path, a 240–340 KiB chunk) on every run; with the cache, V8
 * deserialises the code the previous run compiled instead (docs/benchmarks.md, "Hook latency").
 *
 * The cache holds code the next hook will run, so it is trusted only when no one else could have
 * written it: `$MNEMO_HOME/cache/v8` is created 0700 and used only while it and its parent belong to
 * this user and are not group/other-writable, and each file must be this user's regular file with the
 * same restriction. Each file carries a copy of the bundle it was made from, compared byte for byte
 * before use (V8 itself checks only the source's length), and the Node version and architecture.
 * Any problem (unreadable, foreign, stale, rejected by V8, disk full) means the hook runs uncached.
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { resolveMnemoHome } from '../config/home.js';
import { FOREIGN_WRITE_BITS, privacyProblem } from '../platform/private-fs.js';

/** A cache file larger than this is not read (a bundle and its code are well under 2 MiB). */
const MAX_CACHE_BYTES = 16 * 1024 * 1024;
const FORMAT = 'mnemo-code-cache 1';

/** Where the cache lives for `env`: `<home>/cache/v8`. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string {
  return join(resolveMnemoHome(env), 'cache', 'v8');
}

/** The first line of a cache file for `source` on this Node: format, Node version, arch, source size. */
function header(source: Buffer): Buffer {
  return Buffer.from(`${FORMAT} ${process.version} ${process.arch} ${source.length}\n`, 'latin1');
}

function cacheFile(dir: string, name: string): string {
  return join(dir, `${name}.v8cache`);
}

/** Creates the directory if needed; true when it and its parent are this user's alone. */
function privateDir(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const path of [dir, join(dir, '..')]) {
    const problem = privacyProblem(lstatSync(path), {
      kind: 'directory',
      forbiddenBits: FOREIGN_WRITE_BITS,
    });
    if (problem !== undefined) return false;
  }
  return true;
}

/**
 * The cached code for bundle `name` whose bytes are `source`, or undefined when there is none that is
 * safe and current. Never throws.
 */
export function readCodeCache(dir: string, name: string, source: Buffer): Buffer | undefined {
  let fd: number | undefined;
  try {
    if (!privateDir(dir)) return undefined;
    // O_NOFOLLOW: a symbolic link in place of the file is refused by the open itself.
    fd = openSync(cacheFile(dir, name), fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (privacyProblem(stat, { kind: 'file', forbiddenBits: FOREIGN_WRITE_BITS }) !== undefined) {
      return undefined;
    }
    if (stat.size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const head = header(source);
    const start = head.length;
    const end = start + source.length;
    if (read !== bytes.length || bytes.length <= end) return undefined;
    if (!bytes.subarray(0, start).equals(head)) return undefined;
    if (!bytes.subarray(start, end).equals(source)) return undefined;
    return bytes.subarray(end);
  } catch {
    // No cache yet (ENOENT), or one this process may not use: compile from source.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Stores `data` (from `script.createCachedData()`) for bundle `name` made from `source`: written to a
 * private temporary file and renamed into place, so a concurrent hook reads the old file or the new
 * one, never half of one. Returns whether it was stored; never throws.
 */
export function writeCodeCache(dir: string, name: string, source: Buffer, data: Buffer): boolean {
  const target = cacheFile(dir, name);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    if (data.length === 0 || !privateDir(dir)) return false;
    writeFileSync(temporary, Buffer.concat([header(source), source, data]), {
      mode: 0o600,
      flag: 'wx',
    });
    renameSync(temporary, target);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing more to undo: the next hook writes its own temporary file.
    }
    return false;
  }
}
