/**
 * Session start and prompt recall over memories with code anchors, in real git repositories: a stale
 * user memory is injected with its label and ranked lower; only a memory whose every cited file was
 * deleted is withheld, and the ledger row says which and why.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { type GitRepo, useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { Memory } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { writeMemory } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { handleSessionStart } from './session-start.js';
import { handleUserPromptSubmit } from './user-prompt-submit.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function setUp(): Promise<{ app: TestApp; repo: GitRepo }> {
  const repo = newRepo();
  repo.write('src/db.ts', 'export function openPool() {}\n');
  repo.write('src/cart.ts', 'export const total = 0;\n');
  repo.commit('initial');
  const app = await openTestApp(tempDir('mnemo-start-'));
  apps.push(app);
  return { app, repo };
}

async function decide(app: TestApp, repo: GitRepo, content: string): Promise<Memory> {
  const outcome = await writeMemory(writeDepsFrom(app), {
    envelope: { channel: 'cli' },
    content,
    projectKey: resolveProjectKey(repo.dir),
    kind: 'decision',
    workingDir: repo.dir,
  });
  if (outcome.decision !== 'store') throw new Error('not stored');
  return outcome.memory;
}

async function startContext(app: TestApp, repo: GitRepo, session: string): Promise<string> {
  const result = await handleSessionStart(
    { session_id: session, cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' },
    app,
  );
  if (result.stdout === undefined) return '';
  const parsed = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } };
  return parsed.hookSpecificOutput.additionalContext;
}

describe('session start with code anchors', () => {
  it('injects a memory citing a path that never existed, unlabelled', async () => {
    const { app, repo } = await setUp();
    const memory = await decide(
      app,
      repo,
      'Decision: integration tests run against a real PostgreSQL started by scripts/pg.sh',
    );
    const context = await startContext(app, repo, 's1');
    expect(context).toContain(`id=${memory.id}`);
    expect(context).not.toContain('stale');
  });

  it('labels a stale user memory and ranks it below a fresh one, never dropping it', async () => {
    const { app, repo } = await setUp();
    const fresh = await decide(app, repo, 'Cart totals are computed in src/cart.ts.');
    const stale = await decide(app, repo, 'Open connections with openPool() in src/db.ts.');
    repo.write('src/db.ts', 'export function connect() {}\n');
    repo.commit('rename the pool opener');
    const context = await startContext(app, repo, 's1');
    const header = context.split('\n').find((line) => line.includes(`id=${stale.id}`));
    expect(header).toMatch(
      /· decision · origin=user · .* · stale · cites src\/db\.ts, changed in the last commit; openPool no longer in it$/,
    );
    // Newer, so it would lead on recency alone; stale, so it follows the fresh one.
    expect(context.indexOf(`id=${fresh.id}`)).toBeLessThan(context.indexOf(`id=${stale.id}`));
  });

  it('withholds only a memory whose every cited file was deleted, and records it in the ledger', async () => {
    const { app, repo } = await setUp();
    const gone = await decide(app, repo, 'Pools are opened in src/db.ts.');
    const partly = await decide(app, repo, 'src/db.ts feeds src/cart.ts.');
    repo.remove('src/db.ts');
    const context = await startContext(app, repo, 's1');
    expect(context).not.toContain(gone.id);
    expect(context).toMatch(new RegExp(`id=${partly.id} .* · stale · cites src/db\\.ts, deleted`));
    const [row] = await app.store.listInjections({ sessionId: 's1', limit: 5 });
    expect(row).toMatchObject({
      memoryIds: [partly.id],
      withheld: [{ id: gone.id, reasons: ['cited_files_deleted'] }],
    });
  });

  it('records a ledger row even when every candidate is withheld and nothing is printed', async () => {
    const { app, repo } = await setUp();
    const gone = await decide(app, repo, 'Pools are opened in src/db.ts.');
    repo.remove('src/db.ts');
    expect(await startContext(app, repo, 's1')).toBe('');
    expect(await app.store.listInjections({ sessionId: 's1', limit: 5 })).toMatchObject([
      { memoryIds: [], tokens: 0, withheld: [{ id: gone.id, reasons: ['cited_files_deleted'] }] },
    ]);
  });
});

describe('prompt recall with code anchors', () => {
  it('labels a stale memory it injects and leaves out one whose every cited file was deleted', async () => {
    const { app, repo } = await setUp();
    const stale = await decide(app, repo, 'Connection pool: openPool lives in src/db.ts.');
    const gone = await decide(app, repo, 'Cart totals connection pool rules live in src/cart.ts.');
    repo.write('src/db.ts', 'export function openPool(size) {}\n');
    repo.remove('src/cart.ts');
    const result = await handleUserPromptSubmit(
      {
        session_id: 's2',
        cwd: repo.dir,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'where does openPool open the connection pool?',
      },
      app,
    );
    const context = result.stdout ?? '';
    expect(context).toContain(`id=${stale.id}`);
    expect(context).toContain('stale · cites src/db.ts, changed in the last commit');
    expect(context).not.toContain(gone.id);
  });
});
