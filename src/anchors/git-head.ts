/**
 * The commit HEAD points at, read from git's files (loose refs, packed-refs) without a `git` process, so
 * a capture hook can record the commit of an anchor for the cost of two small reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { isCommitId } from '../core/anchors/anchor.js';
import type { GitLocation } from './project-root.js';

/** Symbolic refs followed before giving up (a loop or a very long chain). */
const MAX_DEPTH = 5;
/** Refs that belong to one worktree and live in its own git directory (git-worktree(1), "Refs"). */
const PER_WORKTREE = /^(?:HEAD|refs\/bisect\/|refs\/worktree\/|refs\/rewritten\/)/;

/**
 * HEAD's commit id; null when the branch has no commit yet, or when the git directory has no HEAD file
 * (git itself takes such a directory for no repository, so no `git` process could name a commit of
 * this working tree); undefined when the files do not say (a reftable repository, an unreadable or
 * malformed ref): ask `git rev-parse HEAD` then, off the hot path.
 */
export function readHead(git: GitLocation): string | null | undefined {
  if (!existsSync(join(git.gitDir, 'HEAD'))) return null;
  if (existsSync(join(git.commonDir, 'reftable'))) return undefined;
  let ref = 'HEAD';
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const value = readRef(git, ref);
    if (value === undefined) return depth === 0 ? undefined : null;
    if (isCommitId(value)) return value;
    const symbolic = /^ref:\s*(\S+)$/.exec(value);
    if (symbolic?.[1] === undefined) return undefined;
    ref = symbolic[1];
  }
  return undefined;
}

function readRef(git: GitLocation, ref: string): string | undefined {
  if (ref.includes('..') || ref.startsWith('/')) return undefined;
  const dir = PER_WORKTREE.test(ref) ? git.gitDir : git.commonDir;
  const loose = readText(join(dir, ref));
  if (loose !== undefined) return loose.trim();
  return packedRef(git.commonDir, ref);
}

function packedRef(commonDir: string, ref: string): string | undefined {
  const packed = readText(join(commonDir, 'packed-refs'));
  if (packed === undefined) return undefined;
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trim() === ref) return line.slice(0, space);
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
