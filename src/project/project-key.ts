/**
 * The project key: the one function every writer and reader uses to decide which project a directory
 * belongs to (threat model principle 7, R4). Writer and reader must agree byte for byte.
 *
 * A project is found as its root directory: the canonical path (symlinks resolved) of the enclosing
 * git working tree, a linked worktree mapped to its main repository, a directory outside any repository
 * mapped to itself. Its key is portable when it can be: a repository with a network remote (`origin`,
 * else its first remote) is keyed `git:<host>/<path>` from that URL with protocol, user, password, port
 * and `.git` dropped, so one repository cloned in different places on different machines shares its
 * memories in a team store. Otherwise (no remote, or a remote that is a local path) the key is the root
 * path itself, which no remote key can equal.
 *
 * It reads the filesystem only and never spawns `git`: hooks call it on every event, and a process
 * spawn would cost more than the rest of the hook.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

import { MemoryError } from '../core/errors.js';

/** Prefix of portable keys; a path key is absolute, so it never starts with it. */
export const REMOTE_KEY_PREFIX = 'git:';

export interface ResolvedProject {
  /** The canonical root directory (where files cited by memories are looked up). */
  root: string;
  /** The key memories are stored under: `git:<host>/<path>` or the root path. */
  key: string;
}

/**
 * Returns the project of `cwd`: its root directory and its key (see the file header). Throws
 * INVALID_INPUT when `cwd` does not exist or is not a directory.
 */
export function resolveProject(cwd: string): ResolvedProject {
  const start = canonicalDirectory(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const found = repositoryRootAt(dir);
    if (found !== undefined) {
      const remote = found.gitDir === undefined ? undefined : remoteKey(found.gitDir);
      if (remote !== undefined) resolvedRoots.set(remote, found.root);
      return { root: found.root, key: remote ?? found.root };
    }
    if (dirname(dir) === dir) return { root: start, key: start };
  }
}

// Remote keys this process resolved, with the directory each came from: where the files cited by that
// project's memories are on this machine (the staleness check, project/stale-memories.ts).
const resolvedRoots = new Map<string, string>();

/**
 * The local root directory of a project key: the key itself for a path key, the directory this
 * process resolved a remote key from, else undefined (the project is not checked out here, as far as
 * this process knows).
 */
export function localRootOf(projectKey: string): string | undefined {
  if (isAbsolute(projectKey)) return projectKey;
  return resolvedRoots.get(projectKey);
}

/** The project key of `cwd` (`resolveProject(cwd).key`). */
export function resolveProjectKey(cwd: string): string {
  return resolveProject(cwd).key;
}

/** The project root directory of `cwd` (`resolveProject(cwd).root`). */
export function resolveProjectRoot(cwd: string): string {
  return resolveProject(cwd).root;
}

/**
 * The portable key of a remote URL, or undefined for a local path or anything unparsable. Keeps host
 * (lower-cased) and path only: `https://user:tok@GitHub.com:443/acme/api.git`, `ssh://git@github.com/
 * acme/api` and `git@github.com:acme/api.git` all give `git:github.com/acme/api`; credentials never
 * reach the key.
 */
export function remoteUrlKey(url: string): string | undefined {
  const text = url.trim();
  let host: string;
  let path: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(text);
  if (scheme !== null) {
    if (scheme[1]?.toLowerCase() === 'file') return undefined;
    host = (scheme[2] ?? '').replace(/^.*@/, '').replace(/:\d*$/, '');
    path = scheme[3] ?? '';
  } else {
    // scp-like `[user@]host:path`; a path with a slash before the first colon is a local path.
    const scp = /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(text);
    // A one-letter "host" is a Windows drive (`C:/repos/x`), as git reads it.
    if (scp === null || (scp[1] ?? '').length === 1) return undefined;
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  }
  host = host.replace(/^\[|\]$/g, '').toLowerCase();
  path = path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/')
    .replace(/\.git$/, '');
  if (host === '' || path === '' || /\s/.test(host + path)) return undefined;
  return `${REMOTE_KEY_PREFIX}${host}/${path}`;
}

/** The key of the repository's `origin` remote, else its first remote; undefined when it has none. */
function remoteKey(gitDir: string): string | undefined {
  let config: string;
  try {
    config = readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    return undefined;
  }
  const urls = new Map<string, string>();
  let remote: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]*)"\s*\]/i.exec(line);
    if (section !== null) {
      remote = section[1];
      continue;
    }
    if (/^\s*\[/.test(line)) {
      remote = undefined;
      continue;
    }
    const entry = remote === undefined ? null : /^\s*url\s*=\s*(.+?)\s*$/i.exec(line);
    if (entry?.[1] !== undefined && remote !== undefined && !urls.has(remote)) {
      urls.set(remote, entry[1].replace(/^"(.*)"$/, '$1'));
    }
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  return url === undefined ? undefined : remoteUrlKey(url);
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

interface FoundRepository {
  root: string;
  /** The git directory whose `config` names the remotes; undefined for a broken pointer. */
  gitDir: string | undefined;
}

/** The project root when `dir` holds a `.git` entry, else undefined (keep walking up). */
function repositoryRootAt(dir: string): FoundRepository | undefined {
  const dotGit = join(dir, '.git');
  let isFile: boolean;
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return { root: dir, gitDir: dotGit };
    isFile = stat.isFile();
  } catch {
    return undefined;
  }
  if (!isFile) return undefined;
  // A `.git` file belongs to a linked worktree or a submodule. A broken pointer still marks a
  // repository boundary, so the directory itself is the best key we can give.
  return rootFromGitFile(dotGit) ?? { root: dir, gitDir: undefined };
}

function rootFromGitFile(dotGitFile: string): FoundRepository | undefined {
  const gitDir = readGitDirPointer(dotGitFile);
  if (gitDir === undefined) return undefined;
  const commonDirFile = join(gitDir, 'commondir');
  // No commondir: a submodule, whose working tree is its own project with its own config.
  if (!existsSync(commonDirFile)) return { root: dirname(dotGitFile), gitDir };
  const commonDir = safeRealpath(resolve(gitDir, readFileSync(commonDirFile, 'utf8').trim()));
  if (commonDir === undefined) return undefined;
  return { root: workTreeOfCommonDir(commonDir), gitDir: commonDir };
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
