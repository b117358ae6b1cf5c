/** Re-verification in real git repositories: who may do it, what it re-anchors, and its audit entry. */
import { afterEach, describe, expect, it } from 'vitest';

import { type GitRepo, useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { isMemoryError } from '../core/errors.js';
import type { Memory } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { writeMemory } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { checkStaleness, scopeOf } from './check-staleness.js';
import { reverifyMemory } from './reverify.js';
import { fullBudget } from './verify-anchors.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function setUp(content: string): Promise<{ app: TestApp; repo: GitRepo; memory: Memory }> {
  const repo = newRepo();
  repo.write('src/db.ts', 'export function openPool() {}\n');
  repo.commit('initial');
  const app = await openTestApp(tempDir('mnemo-reverify-'));
  apps.push(app);
  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'cli' },
    content,
    projectKey: resolveProjectKey(repo.dir),
    workingDir: repo.dir,
  });
  if (outcome.decision !== 'store') throw new Error('not stored');
  return { app, repo, memory: outcome.memory };
}

const byUser = { origin: 'user' as const, channel: 'cli' };

async function statusOf(app: TestApp, repo: GitRepo, memory: Memory) {
  const scope = scopeOf(resolveProjectKey(repo.dir), repo.dir, fullBudget());
  return (await checkStaleness(app, scope, [memory])).byId.get(memory.id);
}

describe('reverifyMemory', () => {
  it('re-anchors a stale memory to the files as they are, which clears it, and audits who did it', async () => {
    const { app, repo, memory } = await setUp('Open the pool with openPool() in src/db.ts.');
    repo.write('src/db.ts', 'export function openPool(size) {}\n');
    repo.commit('size');
    expect((await statusOf(app, repo, memory))?.status).toBe('stale');
    const where = { projectKey: resolveProjectKey(repo.dir), dir: repo.dir };
    const { before, after } = await reverifyMemory(app, memory, { ...where, actor: byUser });
    expect(before).toMatchObject({
      status: 'stale',
      label: 'cites src/db.ts, changed in the last commit',
    });
    expect(after).toMatchObject({
      how: 'reverify',
      anchors: [
        { path: 'src/db.ts', blobId: repo.git('rev-parse', 'HEAD:src/db.ts'), commit: repo.head() },
      ],
    });
    expect((await statusOf(app, repo, memory))?.status).toBe('fresh');
    const audit = (await app.store.auditTrail(memory.id)).at(-1);
    expect(audit).toMatchObject({
      action: 'reverify',
      detail: {
        actor: 'cli',
        origin: 'user',
        head: repo.head(),
        before: [{ path: 'src/db.ts', state: 'changed' }],
        after: [{ path: 'src/db.ts' }],
        anchors: 1,
        mentions: 0,
      },
    });
  });

  it('follows a rename: the anchor moves to the new path and keeps the path the text names', async () => {
    const { app, repo, memory } = await setUp('Pools live in src/db.ts.');
    repo.move('src/db.ts', 'src/store/db.ts');
    const where = { projectKey: resolveProjectKey(repo.dir), dir: repo.dir };
    const { after } = await reverifyMemory(app, memory, { ...where, actor: byUser });
    expect(after.anchors).toMatchObject([{ path: 'src/store/db.ts', citedAs: 'src/db.ts' }]);
    expect((await statusOf(app, repo, memory))?.status).toBe('fresh');
    repo.write('src/store/db.ts', 'changed\n');
    repo.commit('change');
    expect(await statusOf(app, repo, memory)).toMatchObject({
      status: 'stale',
      label: 'cites src/store/db.ts, changed in the last commit',
    });
    // A second re-verification keeps following the moved file.
    const again = await reverifyMemory(app, memory, { ...where, actor: byUser });
    expect(again.after.anchors).toMatchObject([{ path: 'src/store/db.ts', citedAs: 'src/db.ts' }]);
  });

  it('keeps a deleted file as a mention that says so: the memory is no longer gone', async () => {
    const { app, repo, memory } = await setUp('Pools live in src/db.ts.');
    repo.remove('src/db.ts');
    expect((await statusOf(app, repo, memory))?.status).toBe('gone');
    const where = { projectKey: resolveProjectKey(repo.dir), dir: repo.dir };
    const { after } = await reverifyMemory(app, memory, { ...where, actor: byUser });
    expect(after.anchors).toEqual([{ kind: 'mention', path: 'src/db.ts', why: 'deleted' }]);
    expect((await statusOf(app, repo, memory))?.status).toBe('unanchored');
  });

  it('refuses an agent-tainted session re-verifying a more trusted memory, and nothing changes', async () => {
    const { app, repo, memory } = await setUp('Pools live in src/db.ts.');
    repo.write('src/db.ts', 'changed\n');
    const where = { projectKey: resolveProjectKey(repo.dir), dir: repo.dir };
    const sets = await app.store.getAnchorSets([memory.id]);
    const audit = await app.store.auditTrail(memory.id);
    const refused = await reverifyMemory(app, memory, {
      ...where,
      actor: { origin: 'agent_tainted', channel: 'mcp:reverify_memory', sessionId: 's1' },
    }).catch((error: unknown) => error);
    expect(isMemoryError(refused, 'CONFLICT')).toBe(true);
    expect(String(refused)).toContain(`mnemo reverify ${memory.id}`);
    expect(await app.store.getAnchorSets([memory.id])).toEqual(sets);
    expect(await app.store.auditTrail(memory.id)).toEqual(audit);
    const agent = await reverifyMemory(app, memory, {
      ...where,
      actor: { origin: 'agent', channel: 'mcp:reverify_memory', sessionId: 's1' },
    });
    expect(agent.after.how).toBe('reverify');
  });

  it('re-verifies only from the project the memory belongs to', async () => {
    const { app, memory } = await setUp('Pools live in src/db.ts.');
    const other = newRepo();
    const refused = await reverifyMemory(app, memory, {
      projectKey: resolveProjectKey(other.dir),
      dir: other.dir,
      actor: byUser,
    }).catch((error: unknown) => error);
    expect(isMemoryError(refused, 'INVALID_INPUT')).toBe(true);
  });
});
