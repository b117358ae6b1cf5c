/**
 * The backfill of memories written before anchors existed, in a real git repository: each is anchored
 * to its cited files as the commit of its creation time held them, so what changed since is stale.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { Memory } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { ManualClock } from '../store/contract/fixtures.js';
import { checkStaleness, scopeOf } from './check-staleness.js';
import { fullBudget } from './verify-anchors.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('backfillAnchors (through checkStaleness)', () => {
  it('anchors legacy memories to the commit of their time, so later changes and deletions count', async () => {
    const repo = newRepo();
    repo.write('src/db.ts', 'export const pool = 1;\n');
    repo.write('src/old.ts', 'export {};\n');
    const then = repo.commit('initial', '2025-01-01T10:00:00Z');
    repo.write('src/db.ts', 'export const pool = 2;\n');
    repo.commit('tune', '2025-03-01T10:00:00Z');
    repo.write('src/new.ts', 'export const fresh = true;\n');
    repo.remove('src/old.ts');

    const clock = new ManualClock('2025-02-01T10:00:00.000Z');
    const app = await openTestApp(tempDir('mnemo-backfill-'), { clock });
    apps.push(app);
    const projectKey = resolveProjectKey(repo.dir);
    const legacy = async (content: string): Promise<Memory> =>
      (await app.store.remember({ content, projectKey, origin: 'user', kind: 'decision' })).memory;
    const changed = await legacy('Pool size lives in src/db.ts.');
    const deleted = await legacy('The old flow is in src/old.ts.');
    const never = await legacy('Write the runbook in docs/runbook.md.');
    const later = await legacy('New code goes to src/new.ts.');
    const audits = await app.store.auditTrail(changed.id);

    clock.advance(90 * 86_400_000);
    const memories = [changed, deleted, never, later];
    const readOnly = scopeOf(projectKey, repo.dir, fullBudget(), false);
    expect((await checkStaleness(app, readOnly, memories)).backfilled).toBe(4);
    expect(await app.store.getAnchorSets(memories.map((m) => m.id))).toEqual(new Map());

    const result = await checkStaleness(app, scopeOf(projectKey, repo.dir, fullBudget()), memories);
    expect(result.backfilled).toBe(4);
    expect(result.byId.get(changed.id)).toMatchObject({
      status: 'stale',
      label: 'cites src/db.ts, changed 2 commits ago',
    });
    expect(result.byId.get(deleted.id)).toMatchObject({ status: 'gone' });
    expect(result.byId.get(never.id)).toMatchObject({ status: 'unanchored' });
    expect(result.byId.get(later.id)).toMatchObject({ status: 'fresh' });

    const sets = await app.store.getAnchorSets(memories.map((m) => m.id));
    expect(sets.get(changed.id)).toMatchObject({
      how: 'backfill',
      anchors: [
        {
          path: 'src/db.ts',
          source: 'commit',
          commit: then,
          blobId: repo.git('rev-parse', `${then}:src/db.ts`),
        },
      ],
    });
    expect(sets.get(later.id)?.anchors).toMatchObject([
      { path: 'src/new.ts', source: 'worktree', commit: repo.head() },
    ]);
    expect(sets.get(never.id)?.anchors).toEqual([
      { kind: 'mention', path: 'docs/runbook.md', why: 'missing' },
    ]);
    // Marked by how, not audited: nothing about the memory itself changed.
    expect(await app.store.auditTrail(changed.id)).toEqual(audits);
    // Done once: a second check backfills nothing.
    const again = await checkStaleness(app, scopeOf(projectKey, repo.dir, fullBudget()), memories);
    expect(again.backfilled).toBe(0);
  });
});
