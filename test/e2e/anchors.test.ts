/**
 * Code anchors through the built binary in real git repositories: what a new user sees when a memory
 * cites a path that does not exist yet, and what session start, recall, `stale`, `explain`, `ledger`,
 * `reverify` and `doctor` say once cited files are edited, renamed or deleted.
 */
import { describe, expect, it } from 'vitest';

import { useEngines } from '../helpers/engine-process.js';
import { type GitRepo, gitRepoAt } from '../helpers/git-repo.js';
import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { idFrom, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();
const engines = useEngines();

function project(): { h: TestHome; repo: GitRepo } {
  const h = newHome();
  const repo = gitRepoAt(h.project);
  repo.write('src/db.ts', 'export function openPool() {}\n');
  repo.write('src/cart.ts', 'export const total = 0;\n');
  repo.commit('initial');
  return { h, repo };
}

async function remember(h: TestHome, text: string): Promise<string> {
  const result = await h.run(['remember', '--kind', 'decision', text]);
  expect(result.code, result.stderr).toBe(0);
  return idFrom(result.stdout);
}

async function sessionStart(h: TestHome, sessionId: string): Promise<string> {
  const result = await runHookBin(
    h,
    'session-start',
    hookFixture('session-start.startup', { cwd: h.project, sessionId }),
  );
  expect(result.code).toBe(0);
  if (result.stdout === '') return '';
  return (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext;
}

interface StaleJson {
  counts: Record<string, number>;
  stale: { id: string; status: string; label: string | null }[];
}

async function staleJson(h: TestHome): Promise<StaleJson> {
  const result = await h.run(['stale', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StaleJson;
}

describe('code anchors (built binary, real git)', () => {
  it('injects a memory citing a script that is still to be written, and nothing calls it stale', async () => {
    const { h } = project();
    const id = await remember(
      h,
      'Decision: integration tests run against a real PostgreSQL started by scripts/pg.sh',
    );
    expect(await sessionStart(h, 's-1')).toContain(`id=${id}`);
    const stale = await staleJson(h);
    expect(stale).toMatchObject({ counts: { stale: 0, gone: 0, unanchored: 1 }, stale: [] });
    expect((await h.run(['stale'])).stdout).toContain('Nothing is stale.');
    const explained = await h.run(['explain', id]);
    expect(explained.stdout).toContain(
      'scripts/pg.sh: did not exist when anchored (an unresolved mention: never stale)',
    );
    expect(explained.stdout).toContain('injectable:  yes');
  });

  it('labels edited and renamed citations, withholds only the all-deleted one, and says why everywhere', async () => {
    const { h, repo } = project();
    const edited = await remember(h, 'Open connections with openPool() in src/db.ts.');
    const moved = await remember(h, 'Cart totals are computed in src/cart.ts.');
    repo.write('README.md', 'docs\n');
    repo.commit('docs');
    const deleted = await remember(h, 'The readme README.md lists the services.');
    repo.write('src/db.ts', 'export function connect() {}\n');
    repo.commit('replace openPool');
    repo.move('src/cart.ts', 'src/shop/cart.ts');
    repo.remove('README.md');

    const context = await sessionStart(h, 's-1');
    expect(context).toMatch(
      new RegExp(
        `id=${edited} .* · stale · cites src/db\\.ts, changed 3 commits ago; openPool no longer in it`,
      ),
    );
    expect(context).toMatch(
      new RegExp(
        `id=${moved} .* · stale · cites src/cart\\.ts, renamed to src/shop/cart\\.ts 2 commits ago`,
      ),
    );
    expect(context).not.toContain(deleted);

    const stale = await staleJson(h);
    expect(stale.counts).toMatchObject({ stale: 2, gone: 1 });
    expect(Object.fromEntries(stale.stale.map((m) => [m.id, m.status]))).toEqual({
      [edited]: 'stale',
      [moved]: 'stale',
      [deleted]: 'gone',
    });

    const ledger = JSON.parse((await h.run(['ledger', '--json'])).stdout) as {
      totals: { withheld: number };
      sessions: { entries: { withheld: { id: string; reasons: string[] }[] }[] }[];
    };
    expect(ledger.totals.withheld).toBe(1);
    expect(ledger.sessions[0]?.entries[0]?.withheld).toEqual([
      { id: deleted, reasons: ['cited_files_deleted'] },
    ]);
    const explained = await h.run(['explain', deleted]);
    expect(explained.stdout).toContain('every file it cites was deleted');
    expect(explained.stdout).toMatch(
      /last withheld: .*session-start, session s-1\): cited_files_deleted/,
    );
    expect(explained.stdout).toContain('README.md: deleted in the last commit');

    const recalled = await h.run(['recall', '--explain', 'cart', 'totals', 'computed']);
    expect(recalled.stdout).toContain(
      '[stale: cites src/cart.ts, renamed to src/shop/cart.ts 2 commits ago]',
    );
    expect(recalled.stdout).toContain('× stale 0.80');

    engines.watch(h);
    h.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
    const doctor = JSON.parse((await h.run(['doctor', '--json'])).stdout) as {
      checks: { name: string; ok: boolean; detail: string; data?: Record<string, unknown> }[];
    };
    const start = doctor.checks.find((c) => c.name === 'session start');
    expect(start).toMatchObject({
      ok: true,
      data: {
        injected: 2,
        stale: 2,
        withheld: [{ id: deleted, reasons: ['cited_files_deleted'] }],
        reasons: { cited_files_deleted: 1 },
      },
    });
    expect(start?.detail).toContain('1 withheld (cited_files_deleted 1;');
  });

  it('clears staleness with reverify, audited, and the next session start shows it unlabelled', async () => {
    const { h, repo } = project();
    const id = await remember(h, 'Open connections with openPool() in src/db.ts.');
    repo.write('src/db.ts', 'export function openPool(size) {}\n');
    repo.commit('pool size');
    expect(await sessionStart(h, 's-1')).toContain('· stale · cites src/db.ts');

    const reverified = await h.run(['reverify', id]);
    expect(reverified.code, reverified.stderr).toBe(0);
    expect(reverified.stdout).toContain(
      `Re-verified ${id} (it was stale: cites src/db.ts, changed in the last commit); anchored to 1 file: src/db.ts.`,
    );
    const explained = JSON.parse((await h.run(['explain', id, '--json'])).stdout) as {
      anchors: { status: string; how: string };
      audit: { action: string; detail: Record<string, unknown> }[];
    };
    expect(explained.anchors).toMatchObject({ status: 'fresh', how: 'reverify' });
    expect(explained.audit.at(-1)).toMatchObject({
      action: 'reverify',
      detail: { actor: 'cli', origin: 'user', before: [{ path: 'src/db.ts', state: 'changed' }] },
    });
    const context = await sessionStart(h, 's-2');
    expect(context).toContain(`id=${id}`);
    expect(context).not.toContain('stale');
  });

  it('anchors the file a captured edit names, from the hook process', async () => {
    const { h, repo } = project();
    repo.write(
      'src/checkout/cart.ts',
      'const total = items.reduce((s, i) => s + i.price * i.qty, 0);\n',
    );
    repo.commit('cart');
    const payload = hookFixture('post-tool-use-edit', { cwd: h.project, sessionId: 's-edit' });
    expect((await runHookBin(h, 'post-tool-use', payload)).code).toBe(0);
    const listed = JSON.parse((await h.run(['list', '--json'])).stdout) as {
      memories: { id: string }[];
    };
    const [capture] = listed.memories;
    const explained = JSON.parse((await h.run(['explain', capture!.id, '--json'])).stdout) as {
      anchors: {
        status: string;
        how: string;
        anchors: { path: string; kind: string; commit: string }[];
      };
    };
    expect(explained.anchors).toMatchObject({
      status: 'fresh',
      how: 'write',
      anchors: [{ path: 'src/checkout/cart.ts', kind: 'file', commit: repo.head() }],
    });
  });
});
