/**
 * Anchors and staleness in real git repositories (temporary directories, real `git` commands) against a
 * real SQLite store, through the write service as every writer uses it.
 */
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type GitRepo, useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { Memory } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { writeMemory } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { checkStaleness, scopeOf } from './check-staleness.js';
import { type CheckBudget, fullBudget, hookBudget } from './verify-anchors.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function open(): Promise<TestApp> {
  const app = await openTestApp(tempDir('mnemo-anchor-home-'));
  apps.push(app);
  return app;
}

const DB_TS = 'export function openPool() {\n  return pool;\n}\n';

async function remember(app: TestApp, dir: string, content: string): Promise<Memory> {
  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'cli' },
    content,
    projectKey: resolveProjectKey(dir),
    kind: 'decision',
    workingDir: dir,
  });
  if (outcome.decision !== 'store') throw new Error(`not stored: ${outcome.reason}`);
  return outcome.memory;
}

async function staleness(app: TestApp, dir: string, memory: Memory, budget = fullBudget()) {
  const result = await checkStaleness(app, scopeOf(resolveProjectKey(dir), dir, budget), [memory]);
  return result.byId.get(memory.id)!;
}

function repoWithDb(): GitRepo {
  const repo = newRepo();
  repo.write('src/db.ts', DB_TS);
  repo.write('README.md', '# shop\n');
  repo.commit('initial');
  return repo;
}

describe('anchors at write time', () => {
  it('anchors a cited file with its blob id, the commit and the symbols it holds', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Open connections with openPool() in src/db.ts.');
    const set = (await app.store.getAnchorSets([memory.id])).get(memory.id);
    expect(set).toMatchObject({
      how: 'write',
      anchors: [
        {
          kind: 'file',
          path: 'src/db.ts',
          blobId: repo.git('rev-parse', 'HEAD:src/db.ts'),
          commit: repo.head(),
          source: 'worktree',
          symbols: ['openPool'],
        },
      ],
    });
  });

  it('keeps a path that never existed as an unresolved mention, never stale', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(
      app,
      repo.dir,
      'Decision: integration tests run against a real PostgreSQL started by scripts/pg.sh',
    );
    const set = (await app.store.getAnchorSets([memory.id])).get(memory.id);
    expect(set?.anchors).toEqual([{ kind: 'mention', path: 'scripts/pg.sh', why: 'missing' }]);
    expect(await staleness(app, repo.dir, memory)).toEqual({ status: 'unanchored', anchors: [] });
    repo.write('scripts/pg.sh', '#!/bin/sh\n');
    repo.commit('add pg.sh');
    expect((await staleness(app, repo.dir, memory)).status).toBe('unanchored');
  });

  it('resolves a path written relative to the session directory, stored relative to the root', async () => {
    const repo = repoWithDb();
    repo.write('packages/api/src/routes.ts', 'export const routes = [];\n');
    repo.commit('api');
    const app = await open();
    const memory = await remember(
      app,
      join(repo.dir, 'packages', 'api'),
      'Routes are declared in src/routes.ts.',
    );
    const set = (await app.store.getAnchorSets([memory.id])).get(memory.id);
    expect(set?.anchors).toMatchObject([{ kind: 'file', path: 'packages/api/src/routes.ts' }]);
  });
});

describe('staleness from anchors', () => {
  it('is fresh while the cited file is unchanged, and answers from the cache without hashing', async () => {
    const repo = repoWithDb();
    repo.age('src/db.ts');
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    // One stat and nothing to hash or ask git with: only the verdict cached at write time can answer.
    const broke: CheckBudget = { stats: 1, hashBytes: 0, git: { calls: 0, timeoutMs: 1 } };
    const cached = await staleness(app, repo.dir, memory, broke);
    expect(cached).toMatchObject({ status: 'fresh', anchors: [{ verdict: { state: 'fresh' } }] });
    // A touched file is hashed again: without the bytes to do it, the check says it could not.
    repo.write('src/db.ts', DB_TS);
    const touched = await staleness(app, repo.dir, memory, broke);
    expect(touched.anchors[0]?.verdict).toEqual({ state: 'unknown', note: 'budget' });
    expect((await staleness(app, repo.dir, memory)).anchors[0]?.verdict).toEqual({
      state: 'fresh',
    });
  });

  it('makes an edited file stale with the commit range and how many commits ago', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    const anchoredAt = repo.head();
    repo.write('src/db.ts', `${DB_TS}// tuned\n`);
    const changedAt = repo.commit('tune the pool');
    repo.write('README.md', '# shop\n\nmore\n');
    repo.commit('docs');
    repo.write('other.txt', 'x\n');
    const head = repo.commit('other');
    const result = await staleness(app, repo.dir, memory);
    expect(result).toMatchObject({
      status: 'stale',
      label: 'cites src/db.ts, changed 3 commits ago',
      anchors: [
        {
          path: 'src/db.ts',
          verdict: {
            state: 'changed',
            range: { from: anchoredAt, to: head },
            commits: 1,
            commitsAgo: 3,
          },
        },
      ],
    });
    expect(changedAt).not.toBe(head);
  });

  it('says an edit is not committed yet, and names the symbols the file lost', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Call openPool() from src/db.ts first.');
    repo.write('src/db.ts', 'export function connect() {}\n');
    const result = await staleness(app, repo.dir, memory);
    expect(result.label).toBe('cites src/db.ts, changed (not committed); openPool no longer in it');
    expect(result.anchors[0]?.verdict).toMatchObject({
      state: 'changed',
      uncommitted: true,
      commits: 0,
      missingSymbols: ['openPool'],
    });
  });

  it('follows a rename git can tell, stale but not gone', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    repo.move('src/db.ts', 'src/store/db.ts');
    const result = await staleness(app, repo.dir, memory);
    expect(result).toMatchObject({
      status: 'stale',
      label: 'cites src/db.ts, renamed to src/store/db.ts in the last commit',
      anchors: [{ verdict: { state: 'renamed', renamedTo: 'src/store/db.ts', commits: 1 } }],
    });
  });

  it('marks a memory gone only when every cited file was deleted', async () => {
    const repo = repoWithDb();
    const app = await open();
    const both = await remember(app, repo.dir, 'src/db.ts is documented in README.md.');
    const one = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    repo.remove('src/db.ts');
    expect(await staleness(app, repo.dir, one)).toMatchObject({
      status: 'gone',
      label: 'cites src/db.ts, deleted in the last commit',
    });
    const partial = await staleness(app, repo.dir, both);
    expect(partial.status).toBe('stale');
    expect(partial.anchors.map((a) => a.verdict.state)).toEqual(['deleted', 'fresh']);
  });

  it('treats a file missing from the working tree only as missing, never gone', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    repo.unlink('src/db.ts');
    expect(await staleness(app, repo.dir, memory)).toMatchObject({
      status: 'stale',
      label: 'cites src/db.ts, missing from the working tree',
    });
  });

  it('outside git, a deleted file is deleted and an edited one changed', async () => {
    const dir = tempDir('mnemo-plain-');
    const repo = { dir };
    const { writeFileSync, mkdirSync, rmSync } = await import('node:fs');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'a\n');
    writeFileSync(join(dir, 'src', 'b.ts'), 'b\n');
    const app = await open();
    const a = await remember(app, repo.dir, 'Totals in src/a.ts.');
    const b = await remember(app, repo.dir, 'Taxes in src/b.ts.');
    rmSync(join(dir, 'src', 'a.ts'));
    writeFileSync(join(dir, 'src', 'b.ts'), 'b2\n');
    expect(await staleness(app, dir, a)).toMatchObject({
      status: 'gone',
      label: 'cites src/a.ts, deleted since it was written',
    });
    expect(await staleness(app, dir, b)).toMatchObject({
      status: 'stale',
      label: 'cites src/b.ts, changed since it was written',
    });
  });

  it('reports what a spent budget could not pay as provisional: missing, never gone, not cached', async () => {
    const repo = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    repo.remove('src/db.ts');
    const noGit: CheckBudget = { ...hookBudget(), git: { calls: 0, timeoutMs: 400 } };
    expect(await staleness(app, repo.dir, memory, noGit)).toMatchObject({
      status: 'stale',
      anchors: [{ verdict: { state: 'missing', note: 'budget' } }],
    });
    expect((await app.store.getAnchorSets([memory.id])).get(memory.id)?.checks).toEqual([]);
    expect((await staleness(app, repo.dir, memory)).status).toBe('gone');
  });

  it('checks only memories of the caller project, against the caller working tree', async () => {
    const repo = repoWithDb();
    const other = repoWithDb();
    const app = await open();
    const memory = await remember(app, repo.dir, 'Pools live in src/db.ts.');
    const result = await checkStaleness(
      app,
      scopeOf(resolveProjectKey(other.dir), other.dir, fullBudget()),
      [memory],
    );
    expect(result.byId.get(memory.id)).toEqual({ status: 'unchecked', anchors: [] });
  });

  it('resolves a linked worktree against its own files under the main repository project key', async () => {
    const repo = repoWithDb();
    const linked = join(tempDir('mnemo-linked-'), 'feature');
    repo.git('worktree', 'add', '-q', '-b', 'feature', linked);
    const app = await open();
    expect(resolveProjectKey(linked)).toBe(resolveProjectKey(repo.dir));
    const memory = await remember(app, linked, 'Pools live in src/db.ts.');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(linked, 'src', 'db.ts'), 'changed in the feature branch\n');
    expect((await staleness(app, linked, memory)).status).toBe('stale');
    expect((await staleness(app, repo.dir, memory)).status).toBe('fresh');
  });
});
