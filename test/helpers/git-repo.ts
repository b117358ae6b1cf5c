import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { useTempDirs } from './temp-dir.js';

/** A real git repository in a temporary directory, driven with real `git` commands. */
export interface GitRepo {
  /** Canonical path of the working tree. */
  readonly dir: string;
  /** Runs `git <args…>` in the repository and returns its trimmed stdout. */
  git(...args: string[]): string;
  /** Writes a file (creating directories), relative to the repository. */
  write(path: string, text: string): void;
  /** Stages everything and commits (at `date`, ISO, when given); returns the new HEAD. */
  commit(message: string, date?: string): string;
  /** `git mv` + commit. */
  move(from: string, to: string, message?: string): string;
  /** `git rm` + commit. */
  remove(path: string, message?: string): string;
  /** Deletes a file from the working tree only (git still tracks it). */
  unlink(path: string): void;
  /** Sets a file's mtime an hour back, so a check may cache its verdict (it is not "racy"). */
  age(path: string): void;
  head(): string;
}

// Isolated from the machine's git configuration: no hooks, signing or templates of the host leak in.
const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'],
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Opens a repository in `dir` (which must exist and be empty or new). */
export function gitRepoAt(dir: string): GitRepo {
  const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}): string =>
    execFileSync('git', ['-C', dir, ...args], {
      env: { ...GIT_ENV, ...env },
      encoding: 'utf8',
    }).trim();
  const git = (...args: string[]): string => run(args);
  mkdirSync(dir, { recursive: true });
  git('init', '-q', '-b', 'main');
  const repo: GitRepo = {
    dir,
    git,
    write(path, text) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    commit(message, date) {
      git('add', '-A');
      const when = date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      run(['commit', '-q', '--allow-empty', '-m', message], when);
      return repo.head();
    },
    move(from, to, message = `move ${from}`) {
      mkdirSync(dirname(join(dir, to)), { recursive: true });
      git('mv', from, to);
      return repo.commit(message);
    },
    remove(path, message = `remove ${path}`) {
      git('rm', '-q', path);
      return repo.commit(message);
    },
    unlink(path) {
      rmSync(join(dir, path));
    },
    age(path) {
      const past = new Date(Date.now() - 3_600_000);
      utimesSync(join(dir, path), past, past);
    },
    head: () => git('rev-parse', 'HEAD'),
  };
  return repo;
}

/** A factory of fresh repositories, removed after each test. */
export function useGitRepos(): (name?: string) => GitRepo {
  const tempDir = useTempDirs();
  return (name = 'repo') => gitRepoAt(join(tempDir('mnemo-git-'), name));
}
