/**
 * HEAD read from git's files (real repositories made with real `git`, and directories that only look
 * like one), as session start and prompt recall read it before checking anchors.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { readHead } from './git-head.js';
import { resolveProjectRoot } from './project-root.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();

function gitOf(dir: string) {
  const git = resolveProjectRoot(dir)?.git;
  if (git === null || git === undefined) throw new Error(`no git location at ${dir}`);
  return git;
}

describe('readHead', () => {
  it('reads the commit of a real repository from its files', () => {
    const repo = newRepo();
    repo.write('a.ts', 'export const a = 1;\n');
    const head = repo.commit('first');
    expect(readHead(gitOf(repo.dir))).toBe(head);
  });

  it('is null for a repository whose branch has no commit yet', () => {
    const repo = newRepo();
    expect(readHead(gitOf(repo.dir))).toBeNull();
  });

  it('is null, not "ask git", for a .git directory without a HEAD file (git takes it for no repository)', () => {
    const dir = tempDir('mnemo-git-head-');
    mkdirSync(join(dir, '.git'));
    expect(readHead(gitOf(dir))).toBeNull();
    // git agrees: the directory is no repository, so `git rev-parse` could name no commit of it.
    const asked = (() => {
      try {
        return execFileSync('git', ['-C', dir, 'rev-parse', '--verify', '-q', 'HEAD'], {
          env: { PATH: process.env['PATH'], GIT_CEILING_DIRECTORIES: join(dir, '..') },
          stdio: ['ignore', 'pipe', 'ignore'],
        }).toString();
      } catch {
        return 'failed';
      }
    })();
    expect(asked).toBe('failed');
  });

  it('leaves a reftable repository to `git rev-parse` (undefined)', () => {
    const repo = newRepo();
    repo.write('a.ts', 'export const a = 1;\n');
    repo.commit('first');
    const git = gitOf(repo.dir);
    mkdirSync(join(git.commonDir, 'reftable'));
    expect(readHead(git)).toBeUndefined();
  });
});
