import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { resolveProjectKey } from './project-key.js';

const tempDir = useTempDirs();

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd, stdio: 'ignore' },
  );
}

function makeRepo(parent: string, name = 'repo'): string {
  const repo = join(parent, name);
  mkdirSync(repo);
  git(repo, 'init', '-q');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
  return repo;
}

describe('resolveProjectKey', () => {
  it('returns the repository root for the root itself', () => {
    const repo = makeRepo(tempDir());
    expect(resolveProjectKey(repo)).toBe(repo);
  });

  it('returns the repository root from a nested subdirectory', () => {
    const repo = makeRepo(tempDir());
    const nested = join(repo, 'src', 'deep', 'er');
    mkdirSync(nested, { recursive: true });
    expect(resolveProjectKey(nested)).toBe(repo);
  });

  it('resolves a symlink to the repository to the real root', () => {
    const base = tempDir();
    const repo = makeRepo(base);
    mkdirSync(join(repo, 'pkg'));
    symlinkSync(repo, join(base, 'alias'));
    expect(resolveProjectKey(join(base, 'alias'))).toBe(repo);
    expect(resolveProjectKey(join(base, 'alias', 'pkg'))).toBe(repo);
  });

  it('maps a linked worktree and its subdirectories to the main repository', () => {
    const base = tempDir();
    const repo = makeRepo(base);
    git(repo, 'worktree', 'add', '-q', join(base, 'wt'), '-b', 'feature');
    mkdirSync(join(base, 'wt', 'sub'));
    expect(resolveProjectKey(join(base, 'wt'))).toBe(repo);
    expect(resolveProjectKey(join(base, 'wt', 'sub'))).toBe(repo);
  });

  it('maps a symlinked worktree to the main repository', () => {
    const base = tempDir();
    const repo = makeRepo(base);
    git(repo, 'worktree', 'add', '-q', join(base, 'wt'), '-b', 'feature');
    symlinkSync(join(base, 'wt'), join(base, 'wt-link'));
    expect(resolveProjectKey(join(base, 'wt-link'))).toBe(repo);
  });

  it('treats a submodule as its own project', () => {
    const base = tempDir();
    const lib = makeRepo(base, 'lib');
    const app = makeRepo(base, 'app');
    git(app, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib');
    expect(resolveProjectKey(join(app, 'vendor', 'lib'))).toBe(join(app, 'vendor', 'lib'));
    expect(resolveProjectKey(join(app, 'vendor'))).toBe(app);
  });

  it('returns the canonical working directory outside any repository', () => {
    const base = tempDir();
    mkdirSync(join(base, 'plain', 'child'), { recursive: true });
    symlinkSync(join(base, 'plain'), join(base, 'plain-link'));
    expect(resolveProjectKey(join(base, 'plain', 'child'))).toBe(join(base, 'plain', 'child'));
    expect(resolveProjectKey(join(base, 'plain-link'))).toBe(realpathSync(join(base, 'plain')));
  });

  it('keeps a repository with a broken .git pointer as its own project', () => {
    const base = tempDir();
    mkdirSync(join(base, 'broken', 'src'), { recursive: true });
    writeFileSync(join(base, 'broken', '.git'), 'gitdir: ../gone/.git/worktrees/x\n');
    expect(resolveProjectKey(join(base, 'broken', 'src'))).toBe(join(base, 'broken'));
  });

  it('refuses a directory that does not exist', () => {
    expect(() => resolveProjectKey(join(tempDir(), 'missing'))).toThrow(/does not exist/);
  });

  it('refuses a file', () => {
    const file = join(tempDir(), 'f.txt');
    writeFileSync(file, 'x');
    expect(() => resolveProjectKey(file)).toThrow(/is not a directory/);
  });
});
