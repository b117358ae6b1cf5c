/**
 * The project key: the one function every writer and reader uses to decide which project a directory
 * belongs to (threat model principle 7, R4). Writer and reader must agree byte for byte, so the key is
 * always a canonical absolute path: symlinks resolved, a linked git worktree mapped to its main
 * repository, a directory outside any repository mapped to itself.
 *
 * It reads the filesystem only and never spawns `git`: hooks call it on every event, and a process
 * spawn would cost more than the rest of the hook.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

import { MemoryError } from '../core/errors.js';

/**
 * Returns the canonical project key for `cwd`: the working tree root of the enclosing git repository
 * (the main repository's root for a linked worktree), else `realpath(cwd)`.
 *
 * Throws INVALID_INPUT when `cwd` does not exist or is not a directory.
 */
export function resolveProjectKey(cwd: string): string {
  const start = canonicalDirectory(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const root = repositoryRootAt(dir);
    if (root !== undefined) return root;
    if (dirname(dir) === dir) return start;
  }
}

function canonicalDirectory(cwd: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(cwd));
  } catch (error) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Project directory "${cwd}" does not exist. Pass an existing directory (or omit --project to use the current one).`,
      { cause: error },
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new MemoryError(
      'INVALID_INPUT',
      `"${cwd}" is not a directory. Pass the project's directory, not a file in it.`,
    );
  }
  return real;
}

/** The project root when `dir` holds a `.git` entry, else undefined (keep walking up). */
function repositoryRootAt(dir: string): string | undefined {
  const dotGit = join(dir, '.git');
  let isFile: boolean;
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return dir;
    isFile = stat.isFile();
  } catch {
    return undefined;
  }
  if (!isFile) return undefined;
  // A `.git` file belongs to a linked worktree or a submodule. A broken pointer still marks a
  // repository boundary, so the directory itself is the best key we can give.
  return rootFromGitFile(dotGit) ?? dir;
}

function rootFromGitFile(dotGitFile: string): string | undefined {
  const gitDir = readGitDirPointer(dotGitFile);
  if (gitDir === undefined) return undefined;
  const commonDirFile = join(gitDir, 'commondir');
  // No commondir: a submodule, whose working tree is its own project.
  if (!existsSync(commonDirFile)) return dirname(dotGitFile);
  const commonDir = safeRealpath(resolve(gitDir, readFileSync(commonDirFile, 'utf8').trim()));
  if (commonDir === undefined) return undefined;
  return workTreeOfCommonDir(commonDir);
}

function readGitDirPointer(dotGitFile: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(dotGitFile, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (match?.[1] === undefined) return undefined;
  const target = match[1];
  return safeRealpath(isAbsolute(target) ? target : resolve(dirname(dotGitFile), target));
}

/**
 * The main working tree of a repository given its common git directory: the parent of a `.git`
 * directory; otherwise `core.worktree` from its config (a submodule's worktree), else the git directory
 * itself (a bare repository has no working tree, but its worktrees still share one key).
 */
function workTreeOfCommonDir(commonDir: string): string {
  if (basename(commonDir) === '.git') return dirname(commonDir);
  const configured = readCoreWorktree(commonDir);
  return configured ?? commonDir;
}

function readCoreWorktree(gitDir: string): string | undefined {
  let config: string;
  try {
    config = readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let inCore = false;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[([^\]]+)\]/.exec(line);
    if (section?.[1] !== undefined) {
      inCore = section[1].trim().toLowerCase() === 'core';
      continue;
    }
    const entry = inCore ? /^\s*worktree\s*=\s*(.+?)\s*$/i.exec(line) : null;
    if (entry?.[1] !== undefined) return safeRealpath(resolve(gitDir, entry[1]));
  }
  return undefined;
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
