/**
 * The V8 compile cache for hook processes (`module.enableCompileCache`, Node 22.1 and later): compiled
 * code of the hook bundles is kept in `$MNEMO_HOME/cache/v8` and reused by the next hook, which then
 * skips most of its parsing and compiling. On a Node without the API (20.x) this does nothing.
 *
 * The cache holds code the next hook will run, so it must be this user's alone: the directory is made
 * 0700 inside the home and used only when no other account can write it or its parent. A cache
 * problem of any kind never breaks a hook: it runs uncached.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import nodeModule from 'node:module';
import { join } from 'node:path';

import { resolveMnemoHome } from '../config/home.js';

/** The API where this Node has it. */
type EnableCompileCache = (dir: string) => { status: number; message?: string; directory?: string };

const FOREIGN_WRITE = 0o022;

function privateDir(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const path of [dir, join(dir, '..')]) {
    const stat = lstatSync(path);
    const ownerOk = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (!stat.isDirectory() || !ownerOk || (stat.mode & FOREIGN_WRITE) !== 0) return false;
  }
  return true;
}

/** Where the cache lives for `env`: `<home>/cache/v8`. */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
  return join(resolveMnemoHome(env), 'cache', 'v8');
}

/**
 * Turns the compile cache on when `enable` exists (default: this Node's `module.enableCompileCache`)
 * and the directory is private. Returns the directory used, or undefined. Never throws.
 */
export function enableCompileCache(
  env: NodeJS.ProcessEnv,
  enable: EnableCompileCache | undefined = (
    nodeModule as unknown as { enableCompileCache?: EnableCompileCache }
  ).enableCompileCache,
): string | undefined {
  if (typeof enable !== 'function') return undefined;
  try {
    const dir = compileCacheDir(env);
    if (!privateDir(dir)) return undefined;
    enable(dir);
    return dir;
  } catch {
    // An unwritable home or a full disk: the hook simply runs uncached.
    return undefined;
  }
}
