import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { localRootOf, remoteUrlKey, resolveProject, resolveProjectKey } from './project-key.js';

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

describe('portable project keys', () => {
  it('keys a repository with a network remote by host and path, whatever the protocol or credentials', () => {
    const forms = [
      'https://github.com/acme/api.git',
      'https://deploy:s3cr3t-token@GitHub.com:443/acme/api',
      'ssh://git@github.com:22/acme/api.git',
      'git@github.com:acme/api.git',
      'git://github.com/acme/api/',
    ];
    for (const url of forms) expect(remoteUrlKey(url), url).toBe('git:github.com/acme/api');
    expect(remoteUrlKey('https://deploy:s3cr3t-token@github.com/acme/api')).not.toContain('s3cr3t');
  });

  it('does not treat a local path or file URL as portable', () => {
    for (const url of [
      '/srv/git/api.git',
      '../upstream',
      './x',
      'file:///srv/git/api.git',
      'C:/repos/api',
    ]) {
      expect(remoteUrlKey(url), url).toBeUndefined();
    }
  });

  it('gives two clones of one repository in different places the same key, and each its own root', () => {
    const base = tempDir();
    const a = makeRepo(base, 'clone-a');
    const b = makeRepo(base, 'elsewhere-b');
    git(a, 'remote', 'add', 'origin', 'git@github.com:acme/api.git');
    git(b, 'remote', 'add', 'origin', 'https://github.com/acme/api');
    expect(resolveProject(a)).toEqual({ root: a, key: 'git:github.com/acme/api' });
    expect(resolveProject(join(b))).toEqual({ root: b, key: 'git:github.com/acme/api' });
    expect(localRootOf('git:github.com/acme/api')).toBe(b);
  });

  it('prefers origin over other remotes, and maps a linked worktree to the same remote key', () => {
    const base = tempDir();
    const repo = makeRepo(base);
    git(repo, 'remote', 'add', 'fork', 'git@github.com:me/api.git');
    git(repo, 'remote', 'add', 'origin', 'git@github.com:acme/api.git');
    git(repo, 'worktree', 'add', '-q', join(base, 'wt'), '-b', 'feature');
    expect(resolveProjectKey(repo)).toBe('git:github.com/acme/api');
    expect(resolveProject(join(base, 'wt'))).toEqual({
      root: repo,
      key: 'git:github.com/acme/api',
    });
  });

  it('keeps the path key for a repository without a remote or with a local one', () => {
    const base = tempDir();
    const plain = makeRepo(base, 'plain');
    const local = makeRepo(base, 'local');
    git(local, 'remote', 'add', 'origin', plain);
    expect(resolveProjectKey(plain)).toBe(plain);
    expect(resolveProjectKey(local)).toBe(local);
  });

  it('keeps different repositories apart (R4)', () => {
    const base = tempDir();
    const api = makeRepo(base, 'api');
    const web = makeRepo(base, 'web');
    git(api, 'remote', 'add', 'origin', 'git@github.com:acme/api.git');
    git(web, 'remote', 'add', 'origin', 'git@github.com:acme/web.git');
    expect(resolveProjectKey(api)).not.toBe(resolveProjectKey(web));
    expect(resolveProjectKey(api)).not.toBe(api);
  });
});
