/**
 * The directory a memory's anchors are relative to: the working tree that holds the writer's (or
 * checker's) directory. Unlike the project key, which names the project (and maps a linked worktree to
 * its main repository), this is where the files actually are, so a linked worktree is its own root.
 * Anchors are never resolved by treating a project key as a path. Reads the filesystem only, no `git`
 * process: hooks call it on every event.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where a repository's git data lives. */
export interface GitLocation {
  /** The working tree's own git directory (`.git`, or `.git/worktrees/<name>` of a linked worktree). */
  readonly gitDir: string;
  /** The directory shared by all worktrees (refs, packed-refs, objects); `gitDir` unless linked. */
  readonly commonDir: string;
}

export interface ProjectRoot {
  /** Canonical absolute path of the working tree root, or of the directory itself outside git. */
  readonly dir: string;
  /** Null outside a git repository, or when its `.git` pointer is broken. */
  readonly git: GitLocation | null;
}

/** The root of the working tree holding `start`, or undefined when `start` is not a directory. */
export function resolveProjectRoot(start: string): ProjectRoot | undefined {
  let dir: string;
  try {
    dir = realpathSync(resolve(start));
    if (!statSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  for (let at = dir; ; at = dirname(at)) {
    const found = gitAt(at);
    if (found !== undefined) return found;
    if (dirname(at) === at) return { dir, git: null };
  }
}

function gitAt(dir: string): ProjectRoot | undefined {
  const dotGit = join(dir, '.git');
  let isDirectory: boolean;
  try {
    const stat = statSync(dotGit);
    isDirectory = stat.isDirectory();
    if (!isDirectory && !stat.isFile()) return undefined;
  } catch {
    return undefined;
  }
  if (isDirectory) return { dir, git: { gitDir: dotGit, commonDir: dotGit } };
  const gitDir = gitDirPointer(dotGit);
  if (gitDir === undefined) return { dir, git: null };
  return { dir, git: { gitDir, commonDir: commonDirOf(gitDir) } };
}

function gitDirPointer(dotGitFile: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGitFile, 'utf8'));
    if (match?.[1] === undefined) return undefined;
    const target = match[1];
    return realpathSync(isAbsolute(target) ? target : resolve(dirname(dotGitFile), target));
  } catch {
    return undefined;
  }
}

function commonDirOf(gitDir: string): string {
  try {
    const relative = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return realpathSync(resolve(gitDir, relative));
  } catch {
    // No commondir: a submodule's own git directory, which holds everything itself.
    return gitDir;
  }
}
