/**
 * Contract: authorship and team visibility (threat model R4, principle 7). Each new memory records the
 * author the store was opened as; `visibility` (which projects) and `teamVisible` (which authors) are
 * separate fields with one meaning each, and every scoped read applies both.
 */
import { describe, expect } from 'vitest';

import type { MemoryStore, Scope, SearchOptions } from '../store.js';
import type { Harness } from './contract-harness.js';
import { PROJECT_A, PROJECT_B, vectorOf } from './fixtures.js';

const DANA = { user: 'dana', host: 'dana-laptop' };

/** Ids every scoped read returns for `scope`, each read checked to agree with listMemories. */
async function visible(store: MemoryStore, scope: Scope): Promise<string[]> {
  const options: SearchOptions = { limit: 50, scope };
  const listed = (await store.listMemories(options)).map((m) => m.id).sort();
  const lexical = (await store.searchLexical('shared note', options)).map((h) => h.id).sort();
  const terms = (await store.searchTerms(['shared'], options)).map((h) => h.id).sort();
  const vector = (await store.searchVector(vectorOf('m', [1, 0]), options)).map((h) => h.id).sort();
  const unembedded = (await store.listUnembedded('other-model', 50, scope)).map((m) => m.id).sort();
  expect(lexical).toEqual(listed);
  expect(terms).toEqual(listed);
  expect(vector).toEqual(listed);
  expect(unembedded).toEqual(listed);
  expect(await store.countMemories({ scope })).toBe(listed.length);
  return listed;
}

export function describeTeamsContract(h: Harness): void {
  describe('authors and team visibility', () => {
    h.test(
      'records the author and host of each new memory, and keeps them through export and import',
      async () => {
        const store = await h.open({ author: DANA });
        const { memory } = await store.remember({
          content: 'authored note',
          projectKey: PROJECT_A,
          origin: 'user',
        });
        expect(memory).toMatchObject({ authorUser: 'dana', authorHost: 'dana-laptop' });
        const anonymous = await h.open();
        const other = await anonymous.remember({
          content: 'unauthored note',
          projectKey: PROJECT_A,
        });
        expect(other.memory).toMatchObject({ authorUser: null, authorHost: null });
        const [record] = await collect(store);
        const target = await h.open({ author: { user: 'erin', host: 'erin-desktop' } });
        expect(await target.importMemory(record!)).toBe('imported');
        expect(await target.getMemory(memory.id)).toMatchObject({
          authorUser: 'dana',
          authorHost: 'dana-laptop',
        });
      },
    );

    h.test(
      'shares project memories of trusted origins by default, never global ones or unreviewed text',
      async () => {
        const store = await h.open({ author: DANA });
        const put = async (input: Parameters<MemoryStore['remember']>[0]) =>
          (await store.remember(input)).memory.teamVisible;
        expect(await put({ content: 'project fact', projectKey: PROJECT_A, origin: 'user' })).toBe(
          true,
        );
        expect(
          await put({ content: 'agent finding', projectKey: PROJECT_A, origin: 'agent' }),
        ).toBe(true);
        expect(
          await put({
            content: 'my preference',
            projectKey: PROJECT_A,
            visibility: 'global',
            origin: 'user',
          }),
        ).toBe(false);
        expect(
          await put({ content: 'web page text', projectKey: PROJECT_A, origin: 'network' }),
        ).toBe(false);
        expect(
          await put({ content: 'tainted write', projectKey: PROJECT_A, origin: 'agent_tainted' }),
        ).toBe(false);
        expect(
          await put({
            content: 'chosen private',
            projectKey: PROJECT_A,
            origin: 'user',
            teamVisible: false,
          }),
        ).toBe(false);
        expect(
          await put({
            content: 'team convention',
            projectKey: PROJECT_A,
            visibility: 'global',
            origin: 'user',
            teamVisible: true,
          }),
        ).toBe(true);
      },
    );

    h.test(
      'shows other authors only team-visible and unauthored memories, on every read',
      async () => {
        const store = await h.open({ author: DANA });
        const put = async (content: string, extra: Record<string, unknown>) =>
          (
            await store.remember(
              {
                content: `shared note ${content}`,
                projectKey: PROJECT_A,
                origin: 'user',
                ...extra,
              },
              { vector: vectorOf('m', [1, 0.1]) },
            )
          ).memory.id;
        const team = await put('team', {});
        const mine = await put('private', { teamVisible: false });
        const myGlobal = await put('global private', {
          visibility: 'global',
          projectKey: PROJECT_B,
        });
        const teamGlobal = await put('global team', {
          visibility: 'global',
          projectKey: PROJECT_B,
          teamVisible: true,
        });
        const inA = { projectKey: PROJECT_A, includeGlobal: true };
        // The store's own author by default, and explicitly.
        expect(await visible(store, inA)).toEqual([team, mine, myGlobal, teamGlobal].sort());
        expect(await visible(store, { ...inA, author: 'dana' })).toEqual(
          [team, mine, myGlobal, teamGlobal].sort(),
        );
        // Another author of the same team store.
        expect(await visible(store, { ...inA, author: 'erin' })).toEqual([team, teamGlobal].sort());
        // Global reaches other projects, team reaches other authors; neither widens the other.
        const inB = { projectKey: PROJECT_B, includeGlobal: true, author: 'erin' };
        expect(await visible(store, inB)).toEqual([teamGlobal]);
        expect(
          await visible(store, { projectKey: null, includeGlobal: true, author: 'erin' }),
        ).toEqual([teamGlobal]);
        // Sharing is a field change like any other, and withdrawing it works too.
        await store.updateMemory(mine, { teamVisible: true });
        await store.updateMemory(team, { teamVisible: false });
        expect(await visible(store, { ...inA, author: 'erin' })).toEqual([mine, teamGlobal].sort());
        expect((await store.auditTrail(mine)).map((e) => e.action)).toEqual(['remember', 'update']);
      },
    );

    h.test('lets every reader see memories written before authorship was recorded', async () => {
      const anonymous = await h.open();
      const { memory } = await anonymous.remember(
        {
          content: 'shared note from before',
          projectKey: PROJECT_A,
          visibility: 'global',
          origin: 'user',
        },
        { vector: vectorOf('m', [1, 0]) },
      );
      expect(memory).toMatchObject({ authorUser: null, teamVisible: false });
      expect(
        await visible(anonymous, { projectKey: PROJECT_B, includeGlobal: true, author: 'erin' }),
      ).toEqual([memory.id]);
    });
  });
}

async function collect(store: MemoryStore) {
  const out = [];
  for await (const record of store.exportMemories()) out.push(record);
  return out;
}
