/**
 * Who sees what on a store shared by several authors, through the built binary: the write path decides a
 * memory's team visibility from the channel it came through (`defaultTeamVisible`), never leaves it to
 * chance. A project memory from a channel that needs no review is shared; a global one stays with its
 * author; a capture held for review is shared with nobody. Two `MNEMO_AUTHOR`s on one SQLite file
 * exercise the same scoped reads a PostgreSQL team store runs (store contract: teams).
 */
import { describe, expect, it } from 'vitest';

import type { Memory } from '../../src/core/memory.js';
import { expectQuietHook, hookFixture } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();

async function listAs(t: TestHome, author: string): Promise<Memory[]> {
  const result = await t.run(['list', '--json', '-n', '100'], { env: { MNEMO_AUTHOR: author } });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { memories: Memory[] }).memories;
}

describe('team visibility decided by the write path', () => {
  it('shares a project decision and an edit capture, keeps a global preference and a held web page private', async () => {
    const t = newHome();
    t.env['MNEMO_AUTHOR'] = 'alice';
    const decision = await t.run(['remember', 'the staging database is called heliotrope']);
    expect(decision.code).toBe(0);
    const global = await t.run(['remember', '--global', 'alice prefers tabs over spaces']);
    expect(global.code).toBe(0);
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-webfetch', { cwd: t.project }),
    );

    const stored = await withStore(t.home, (app) => app.store.listMemories({ limit: 100 }));
    const byOrigin = (origin: RegExp) => stored.filter((m) => origin.test(m.origin));
    expect(stored.every((m) => m.authorUser === 'alice')).toBe(true);
    const shared = stored.filter((m) => m.teamVisible).map((m) => m.id);
    const project = stored.find((m) => m.content.includes('heliotrope'))!;
    const preference = stored.find((m) => m.content.includes('tabs'))!;
    const [edit] = byOrigin(/^local_edit$/u);
    const [page] = byOrigin(/^network$/u);
    expect(edit).toBeDefined();
    expect(page).toMatchObject({ quarantine: 'pending' });
    expect(preference.visibility).toBe('global');
    expect(shared.sort()).toEqual([project.id, edit!.id].sort());

    // Bob reads the same store: alice's shared memories, nothing private of hers.
    const bob = (await listAs(t, 'bob')).map((m) => m.id);
    expect(bob).toContain(project.id);
    expect(bob).toContain(edit!.id);
    expect(bob).not.toContain(preference.id);
    expect(bob).not.toContain(page!.id);
    const recall = await t.run(['recall', 'heliotrope', '--json'], {
      env: { MNEMO_AUTHOR: 'bob' },
    });
    expect(recall.code).toBe(0);
    expect(recall.stdout).toContain(project.id);
    // Alice still sees all of hers.
    expect((await listAs(t, 'alice')).map((m) => m.id)).toEqual(
      expect.arrayContaining([project.id, preference.id, edit!.id]),
    );
  });
});
