import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './mnemo-bin.js';

/**
 * A copy of the built package at `dir` (dist and package.json, the repository's node_modules linked):
 * an install source a test may move or break without touching the checkout. Returns its executable.
 */
export function copyBuiltPackage(dir: string): string {
  mkdirSync(dir, { recursive: true });
  cpSync(join(REPO_ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'dist', 'cli', 'mnemo.cjs');
}
