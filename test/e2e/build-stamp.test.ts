/**
 * `prepare` rebuilds only when the sources changed (scripts/build-stamp.mjs): npm runs `prepare` for the
 * checkout on every `npx mnemo …` and `npm link`, so an unchanged tree must not rebuild, and a changed
 * one must. The script runs for real on a scratch tree laid out like the repository, and on the
 * repository itself, which `npm test` has just built.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
const REPO = fileURLToPath(new URL('../../', import.meta.url));

function stamp(root: string, mode: string): { code: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-stamp.mjs'), mode], {
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout };
}

function scratchTree(): string {
  const root = tempDir('mnemo-stamp-');
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(REPO, 'scripts', 'build-stamp.mjs'), join(root, 'scripts', 'build-stamp.mjs'));
  mkdirSync(join(root, 'src', 'core'), { recursive: true });
  writeFileSync(join(root, 'src', 'core', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{"name":"scratch"}\n');
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  mkdirSync(join(root, 'dist', 'hook-bundles'));
  writeFileSync(join(root, 'dist', 'cli', 'mnemo.cjs'), '');
  writeFileSync(join(root, 'dist', 'cli', 'main.js'), '');
  return root;
}

describe('build stamp', () => {
  it('calls a tree stale until its build is stamped, then fresh', () => {
    const root = scratchTree();
    expect(stamp(root, 'check').code).toBe(1);
    expect(stamp(root, 'write').code).toBe(0);
    expect(stamp(root, 'check')).toEqual({
      code: 0,
      stdout: 'mnemo: dist/ is up to date with the sources; not rebuilding\n',
    });
  });

  it('calls it stale again when a source, a new file, the package file or an output changes', () => {
    const root = scratchTree();
    stamp(root, 'write');
    writeFileSync(join(root, 'src', 'core', 'a.ts'), 'export const a = 2;\n');
    expect(stamp(root, 'check').code).toBe(1);
    stamp(root, 'write');
    writeFileSync(join(root, 'src', 'core', 'b.ts'), '');
    expect(stamp(root, 'check').code).toBe(1);
    stamp(root, 'write');
    writeFileSync(join(root, 'package.json'), '{"name":"scratch","version":"2"}\n');
    expect(stamp(root, 'check').code).toBe(1);
    stamp(root, 'write');
    rmSync(join(root, 'dist', 'cli', 'mnemo.cjs'));
    expect(stamp(root, 'check').code).toBe(1);
  });

  it('finds the repository fresh after `npm run build`, so `npx mnemo` does not rebuild it', () => {
    expect(stamp(REPO, 'check').code).toBe(0);
  });
});
