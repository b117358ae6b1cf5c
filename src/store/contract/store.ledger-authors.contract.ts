/**
 * Contract: the injection ledger knows whose session it was (threat model R4 in a team store). Each
 * row records the author the injecting store was opened as; a ledger read is scoped to the reader like
 * a memory read (store/ledger-scope.ts): its own rows, unauthored ones only while no other author has
 * written, and never the id of a memory private to another author.
 */
import { describe, expect } from 'vitest';

import type { InjectionRecord, MemoryStore, NewInjection } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';

const DANA = { user: 'dana', host: 'dana-laptop' };
const ERIN = { user: 'erin', host: 'erin-desktop' };

function injection(sessionId: string, patch: Partial<NewInjection> = {}): NewInjection {
  return {
    sessionId,
    event: 'session-start',
    source: 'startup',
    projectKey: PROJECT_A,
    memoryIds: [],
    tokens: 50,
    ...patch,
  };
}

async function note(store: MemoryStore, content: string, teamVisible: boolean): Promise<string> {
  const { memory } = await store.remember({
    content,
    projectKey: PROJECT_A,
    origin: 'user',
    teamVisible,
  });
  return memory.id;
}

/** Every session id and memory id a reader is shown by these rows. */
function named(rows: readonly InjectionRecord[]): string[] {
  return rows.flatMap((r) => [r.sessionId, ...r.memoryIds, ...r.withheld.map((w) => w.id)]);
}

export function describeLedgerAuthorsContract(h: Harness): void {
  describe('ledger authors', () => {
    h.test('records the author the store was opened as on each row, null without one', async () => {
      const dana = await h.open({ author: DANA });
      const anonymous = await h.open({ sharing: dana });
      const id = await note(dana, 'Deploy with just deploy.', true);
      const mine = await dana.recordInjection(injection('dana-1', { memoryIds: [id] }));
      const unknown = await anonymous.recordInjection(injection('anon-1', { memoryIds: [id] }));
      expect(mine.author).toBe('dana');
      expect(unknown.author).toBeNull();
      // A store opened without an author reads every row, each with its author.
      const all = await anonymous.listInjections({ limit: 10 });
      expect(all.map((r) => [r.sessionId, r.author])).toEqual([
        ['anon-1', null],
        ['dana-1', 'dana'],
      ]);
    });

    h.test(
      "shows each author only their own sessions, never another author's private memory ids",
      async () => {
        const clock = new ManualClock('2025-06-01T09:00:00.000Z');
        const dana = await h.open({ clock, author: DANA });
        const erin = await h.open({ clock, author: ERIN, sharing: dana });
        const shared = await note(dana, 'Tests need dist/ built first.', true);
        const danaPrivate = await note(dana, 'My draft: the cache may go.', false);
        const danaHeld = await note(dana, 'Pools open in src/db.ts.', false);
        const erinPrivate = await note(erin, 'I keep my scratch notes here.', false);
        await dana.recordInjection(
          injection('dana-s', {
            memoryIds: [shared, danaPrivate],
            withheld: [{ id: danaHeld, reasons: ['cited_files_deleted'] }],
          }),
        );
        clock.advance(60_000);
        await erin.recordInjection(injection('erin-s', { memoryIds: [shared, erinPrivate] }));
        await erin.recordInjection(
          injection('erin-s', { event: 'prompt-recall', source: null, memoryIds: [erinPrivate] }),
        );

        const danaRows = await dana.listInjections({ limit: 10 });
        expect(danaRows.map((r) => [r.sessionId, r.author, r.memoryIds])).toEqual([
          ['dana-s', 'dana', [shared, danaPrivate]],
        ]);
        expect(danaRows[0]?.withheld).toEqual([{ id: danaHeld, reasons: ['cited_files_deleted'] }]);
        expect(named(danaRows)).not.toContain(erinPrivate);
        expect(named(danaRows)).not.toContain('erin-s');
        const erinRows = await erin.listInjections({ limit: 10 });
        expect(erinRows.map((r) => [r.sessionId, r.event, r.author])).toEqual([
          ['erin-s', 'prompt-recall', 'erin'],
          ['erin-s', 'session-start', 'erin'],
        ]);
        expect(named(erinRows)).not.toContain(danaPrivate);
        expect(named(erinRows)).not.toContain(danaHeld);
        // Asking for the other's session, or from a time, changes nothing.
        expect(await dana.listInjections({ sessionId: 'erin-s', limit: 10 })).toEqual([]);
        expect(
          await erin.listInjections({
            since: '2025-06-01T08:00:00Z',
            sessionId: 'dana-s',
            limit: 9,
          }),
        ).toEqual([]);
        expect(await dana.injectedIds('erin-s')).toEqual([]);
        expect(await erin.injectedIds('erin-s')).toEqual([shared, erinPrivate]);
      },
    );

    h.test(
      'leaves out of a reader’s own rows the ids of memories another author made private since',
      async () => {
        const dana = await h.open({ author: DANA });
        const erin = await h.open({ author: ERIN, sharing: dana });
        const erinShared = await note(erin, 'Release checklist lives in docs/release.md.', true);
        const danaOwn = await note(dana, 'Run the linter before pushing.', false);
        await dana.recordInjection(
          injection('dana-s', {
            memoryIds: [erinShared, danaOwn],
            withheld: [{ id: erinShared, reasons: ['tainted'] }],
          }),
        );
        expect((await dana.listInjections({ limit: 5 }))[0]?.memoryIds).toEqual([
          erinShared,
          danaOwn,
        ]);
        await erin.updateMemory(erinShared, { teamVisible: false });
        const [row] = await dana.listInjections({ limit: 5 });
        expect(row).toMatchObject({ sessionId: 'dana-s', memoryIds: [danaOwn], withheld: [] });
        // The row itself is unchanged: a store opened without an author still reads it whole.
        const anonymous = await h.open({ sharing: dana });
        const [whole] = await anonymous.listInjections({ limit: 5 });
        expect(whole?.memoryIds).toEqual([erinShared, danaOwn]);
      },
    );

    h.test(
      'shows rows of no recorded author only while no other author has written to the store',
      async () => {
        const anonymous = await h.open();
        const legacyId = await note(anonymous, 'Written before authorship.', true);
        await anonymous.recordInjection(injection('legacy-s', { memoryIds: [legacyId] }));
        const dana = await h.open({ author: DANA, sharing: anonymous });
        const sessions = async (store: MemoryStore) =>
          (await store.listInjections({ limit: 10 })).map((r) => r.sessionId);
        // One person's store: their history from before the ledger kept authors stays whole.
        expect(await sessions(dana)).toEqual(['legacy-s']);
        await dana.recordInjection(injection('dana-s', { memoryIds: [legacyId] }));
        await note(dana, 'A note of my own.', false);
        expect(await sessions(dana)).toEqual(['dana-s', 'legacy-s']);
        // Once a teammate has written, nobody can tell whose the unauthored row was: shown to no author.
        const erin = await h.open({ author: ERIN, sharing: anonymous });
        expect(await sessions(erin)).toEqual([]);
        await note(erin, 'Erin was here.', true);
        expect(await sessions(dana)).toEqual(['dana-s']);
        expect(await sessions(erin)).toEqual([]);
        expect(await sessions(anonymous)).toEqual(['dana-s', 'legacy-s']);
        // A teammate's ledger row alone counts as writing too.
        const fresh = await h.open();
        await fresh.recordInjection(injection('old-s', { memoryIds: [legacyId] }));
        const frank = await h.open({ author: { user: 'frank', host: 'f' }, sharing: fresh });
        expect(await sessions(frank)).toEqual(['old-s']);
        const gail = await h.open({ author: { user: 'gail', host: 'g' }, sharing: fresh });
        await gail.recordInjection(injection('gail-s', { memoryIds: [legacyId] }));
        expect(await sessions(frank)).toEqual([]);
        // Frank only read: to Gail, the one author who wrote, it is still one person's store.
        expect(await sessions(gail)).toEqual(['gail-s', 'old-s']);
        // Never shown, but still a session's own history: the same memory is not sent to it twice.
        expect(await dana.injectedIds('legacy-s')).toEqual([legacyId]);
      },
    );

    h.test(
      'copies every author’s rows whole, with their authors and withheld candidates',
      async () => {
        const dana = await h.open({ author: DANA });
        const erin = await h.open({ author: ERIN, sharing: dana });
        const held = await note(dana, 'Pools open in src/db.ts.', false);
        const erinPrivate = await note(erin, 'Scratch notes.', false);
        await dana.recordInjection(
          injection('dana-s', { withheld: [{ id: held, reasons: ['cited_files_deleted'] }] }),
        );
        await erin.recordInjection(injection('erin-s', { memoryIds: [erinPrivate] }));
        const rows = await dana.readInjections(0, 10);
        expect(rows.map((r) => [r.sessionId, r.author])).toEqual([
          ['dana-s', 'dana'],
          ['erin-s', 'erin'],
        ]);
        const target = await h.open({ author: { user: 'operator', host: 'o' } });
        expect(await target.importInjections(rows)).toBe(2);
        const copied = await target.readInjections(0, 10);
        expect(copied.map(({ seq: _seq, ...rest }) => rest)).toEqual(
          rows.map(({ seq: _seq, ...rest }) => rest),
        );
        const danaOnTarget = await h.open({ author: DANA, sharing: target });
        expect((await danaOnTarget.listInjections({ limit: 10 })).map((r) => r.sessionId)).toEqual([
          'dana-s',
        ]);
        await expect(target.importInjections([{ ...rows[0]!, author: '' }])).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
      },
    );
  });
}
