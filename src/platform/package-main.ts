/**
 * Where this mnemo's executable is: the package's `dist/cli/mnemo.cjs`, found by walking up from a path
 * inside the package (the running script, through symlinks such as npm's bin link). Used to register
 * the hooks (install) and to run a command in a process of its own (the engine's daily backup).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';

/**
 * The package's built executable above `from`. Throws INVALID_INPUT when there is none, its message
 * ending with `hint` (what the caller's user can do about it).
 */
export function findPackageMain(from: string | undefined, hint: string): string {
  if (from === undefined || !existsSync(from)) {
    throw new MemoryError('INVALID_INPUT', `Cannot tell where the mnemo binary is. ${hint}`);
  }
  for (let dir = dirname(realpathSync(from)); ; dir = dirname(dir)) {
    if (isMnemoPackage(join(dir, 'package.json'))) {
      const main = join(dir, 'dist', 'cli', 'mnemo.cjs');
      if (existsSync(main)) return main;
      throw new MemoryError('INVALID_INPUT', `${main} does not exist. ${hint}`);
    }
    if (dirname(dir) === dir) {
      throw new MemoryError('INVALID_INPUT', `No mnemo package above ${from}. ${hint}`);
    }
  }
}

function isMnemoPackage(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'mnemo';
  } catch {
    // No package.json here, or not ours to read: keep walking up.
    return false;
  }
}
