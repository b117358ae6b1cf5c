/**
 * Contract: the write path's fields on memories — trust band, taint, review state (quarantine),
 * redactions, gate reason — the quarantine filter every read applies, review decisions and merges.
 */
import { describe, expect } from 'vitest';

import { type NewMemory, QUARANTINE_STATES, type QuarantineState } from '../../core/memory.js';
import type { MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A, vectorOf } from './fixtures.js';
import { expectCode } from './store.crud.contract.js';

const scope = { projectKey: PROJECT_A, includeGlobal: false };

/** One memory per review state, each with the word "reviewed" and a vector near [1, 0]. */
async function oneOfEachState(store: MemoryStore): Promise<Record<QuarantineState, string>> {
  const ids: Partial<Record<QuarantineState, string>> = {};
  for (const [i, state] of QUARANTINE_STATES.entries()) {
    const { memory } = await store.remember(
      {
        content: `reviewed note ${state}`,
        projectKey: PROJECT_A,
        origin: 'user',
        quarantine: state,
      },
      { vector: vectorOf('m', [1, i / 10]) },
    );
    ids[state] = memory.id;
  }
  return ids as Record<QuarantineState, string>;
}

export function describeReviewContract(h: Harness): void {
  describe('write-path fields', () => {
    h.test(
      'stores the fields a writer supplies and derives the trust band from origin',
      async () => {
        const store = await h.open();
        const input: NewMemory = {
          content: 'Fetched: the staging host is staging.example.test',
          projectKey: PROJECT_A,
          origin: 'network',
          originTool: 'WebFetch',
          tainted: true,
          quarantine: 'pending',
          redactions: 2,
          gateReason: 'bypass_cue',
        };
        const { memory } = await store.remember(input);
        expect(memory).toMatchObject({
          trustBand: 'untrusted',
          tainted: true,
          quarantine: 'pending',
          redactions: 2,
          gateReason: 'bypass_cue',
        });
        expect(await store.getMemory(memory.id)).toEqual(memory);
        const [entry] = await store.auditTrail(memory.id);
        expect(entry?.detail).toMatchObject({
          trustBand: 'untrusted',
          tainted: true,
          quarantine: 'pending',
          redactions: 2,
          gateReason: 'bypass_cue',
        });
        const bands = [];
        for (const origin of ['user', 'agent', 'local_edit', 'local_read', 'local_exec', 'x:y']) {
          bands.push(
            (await store.remember({ content: `from ${origin}`, projectKey: PROJECT_A, origin }))
              .memory.trustBand,
          );
        }
        expect(bands).toEqual(['high', 'medium', 'medium', 'low', 'low', 'untrusted']);
      },
    );

    h.test(
      'defaults the review state to pending exactly for origins that require review',
      async () => {
        const store = await h.open();
        const states: Record<string, QuarantineState> = {};
        for (const origin of [
          'user',
          'agent',
          'local_edit',
          'local_read',
          'local_exec',
          'agent_tainted',
          'network',
          'unknown',
          'made-up',
        ]) {
          const { memory } = await store.remember({
            content: `default for ${origin}`,
            projectKey: PROJECT_A,
            origin,
          });
          states[origin] = memory.quarantine;
          expect(memory).toMatchObject({ tainted: false, redactions: 0, gateReason: 'novel' });
        }
        expect(states).toEqual({
          user: 'none',
          agent: 'none',
          local_edit: 'none',
          local_read: 'none',
          local_exec: 'none',
          agent_tainted: 'pending',
          network: 'pending',
          unknown: 'pending',
          'made-up': 'pending',
        });
        const chosen = await store.remember({
          content: 'chosen state',
          projectKey: PROJECT_A,
          origin: 'network',
          quarantine: 'approved',
        });
        expect(chosen.memory.quarantine).toBe('approved');
      },
    );

    h.test('refuses field values outside their vocabularies and writes nothing', async () => {
      const store = await h.open();
      const base = { content: 'bad field', projectKey: PROJECT_A };
      for (const bad of [
        { quarantine: 'maybe' },
        { gateReason: 'because' },
        { redactions: -1 },
        { redactions: 1.5 },
        { tainted: 'yes' },
      ]) {
        await expectCode(
          store.remember({ ...base, ...bad } as unknown as NewMemory),
          'INVALID_INPUT',
        );
      }
      expect(
        await store.countMemories({ includeSuperseded: true, quarantine: QUARANTINE_STATES }),
      ).toBe(0);
      expect((await h.options.inspect(store)).auditRows).toBe(0);
    });
  });

  describe('quarantine filter', () => {
    h.test('hides rejected memories from every read unless asked for by state', async () => {
      const store = await h.open();
      const ids = await oneOfEachState(store);
      const visible = [ids.none, ids.pending, ids.approved].sort();
      const lexical = await store.searchLexical('reviewed', { limit: 10, scope });
      expect(lexical.map((hit) => hit.id).sort()).toEqual(visible);
      const vector = await store.searchVector(vectorOf('m', [1, 0]), { limit: 10, scope });
      expect(vector.map((hit) => hit.id).sort()).toEqual(visible);
      const listed = await store.listMemories({ limit: 10, scope });
      expect(listed.map((m) => m.id).sort()).toEqual(visible);
      expect(await store.countMemories({ scope })).toBe(3);
      expect(await store.getMemory(ids.rejected)).toMatchObject({ quarantine: 'rejected' });
    });

    h.test('returns exactly the states listed, and nothing for an empty list', async () => {
      const store = await h.open();
      const ids = await oneOfEachState(store);
      for (const states of [
        ['rejected'],
        ['pending', 'approved'],
        [...QUARANTINE_STATES],
      ] as QuarantineState[][]) {
        const expected = states.map((s) => ids[s]).sort();
        const options = { limit: 10, scope, quarantine: states };
        expect((await store.searchLexical('reviewed', options)).map((x) => x.id).sort()).toEqual(
          expected,
        );
        expect(
          (await store.searchVector(vectorOf('m', [1, 0]), options)).map((x) => x.id).sort(),
        ).toEqual(expected);
        expect((await store.listMemories(options)).map((m) => m.id).sort()).toEqual(expected);
        expect(await store.countMemories({ scope, quarantine: states })).toBe(states.length);
      }
      expect(await store.searchLexical('reviewed', { limit: 10, quarantine: [] })).toEqual([]);
      expect(await store.countMemories({ quarantine: [] })).toBe(0);
    });
  });

  describe('setQuarantine', () => {
    h.test(
      'changes the review state with an audit entry naming the actor and both states',
      async () => {
        const clock = new ManualClock('2025-04-01T12:00:00.000Z');
        const store = await h.open({ clock });
        const { memory } = await store.remember({
          content: 'needs review',
          projectKey: PROJECT_A,
          origin: 'network',
        });
        clock.advance(60_000);
        const approved = await store.setQuarantine(memory.id, 'approved', 'cli');
        expect(approved).toEqual({ ...memory, quarantine: 'approved' });
        clock.advance(60_000);
        const rejected = await store.setQuarantine(memory.id, 'rejected', 'web');
        expect(rejected.quarantine).toBe('rejected');
        expect(await store.searchLexical('review', { limit: 5 })).toEqual([]);
        const trail = await store.auditTrail(memory.id);
        expect(trail.slice(1).map(({ action, at, detail }) => ({ action, at, detail }))).toEqual([
          {
            action: 'quarantine',
            at: '2025-04-01T12:01:00.000Z',
            detail: { actor: 'cli', from: 'pending', to: 'approved' },
          },
          {
            action: 'quarantine',
            at: '2025-04-01T12:02:00.000Z',
            detail: { actor: 'web', from: 'approved', to: 'rejected' },
          },
        ]);
      },
    );

    h.test('records nothing when the state is unchanged', async () => {
      const store = await h.open();
      const { memory } = await store.remember({
        content: 'already fine',
        projectKey: PROJECT_A,
        origin: 'user',
      });
      expect(await store.setQuarantine(memory.id, 'none', 'cli')).toEqual(memory);
      expect((await store.auditTrail(memory.id)).map((e) => e.action)).toEqual(['remember']);
    });

    h.test(
      'throws NOT_FOUND for an unknown id and INVALID_INPUT for a bad state or actor',
      async () => {
        const store = await h.open();
        await expectCode(
          store.setQuarantine('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'approved', 'cli'),
          'NOT_FOUND',
        );
        const { memory } = await store.remember({
          content: 'target',
          projectKey: PROJECT_A,
          origin: 'unknown',
        });
        await expectCode(
          store.setQuarantine(memory.id, 'maybe' as QuarantineState, 'cli'),
          'INVALID_INPUT',
        );
        await expectCode(store.setQuarantine(memory.id, 'approved', '  '), 'INVALID_INPUT');
        expect((await store.getMemory(memory.id))?.quarantine).toBe('pending');
      },
    );
  });

  describe('recordMerge', () => {
    h.test('records one access and a merge audit entry with the detail', async () => {
      const clock = new ManualClock('2025-04-01T12:00:00.000Z');
      const store = await h.open({ clock });
      const { memory } = await store.remember({
        content: 'merge target',
        projectKey: PROJECT_A,
        origin: 'agent',
      });
      clock.advance(3_600_000);
      const merged = await store.recordMerge(memory.id, {
        similarity: 0.97,
        origin: 'agent',
        tool: null,
      });
      expect(merged).toMatchObject({
        accessCount: 1,
        lastAccessedAt: '2025-04-01T13:00:00.000Z',
        content: 'merge target',
      });
      expect(await store.getMemory(memory.id)).toEqual(merged);
      const trail = await store.auditTrail(memory.id);
      expect(trail.map((e) => e.action)).toEqual(['remember', 'merge']);
      expect(trail[1]?.detail).toEqual({ similarity: 0.97, origin: 'agent', tool: null });
    });

    h.test('throws NOT_FOUND for an unknown id and writes nothing', async () => {
      const store = await h.open();
      await expectCode(
        store.recordMerge('01ARZ3NDEKTSV4RRFFQ69G5FAV', { similarity: 1 }),
        'NOT_FOUND',
      );
      expect((await h.options.inspect(store)).auditRows).toBe(0);
    });
  });

  describe('recordCluster', () => {
    h.test('appends one cluster entry per member and changes no column', async () => {
      const store = await h.open();
      const ids: string[] = [];
      for (const content of ['fragment one', 'fragment two', 'fragment three']) {
        const { memory } = await store.remember({
          content,
          projectKey: PROJECT_A,
          origin: 'network',
          quarantine: 'pending',
        });
        ids.push(memory.id);
      }
      const before = await store.getMemories(ids);
      const detail = { clusterId: `cluster-${ids[0]}`, members: ids, reason: 'w8' };
      await store.recordCluster(ids, detail);
      expect(await store.getMemories(ids)).toEqual(before);
      for (const id of ids) {
        const trail = await store.auditTrail(id);
        expect(trail.map((e) => e.action)).toEqual(['remember', 'cluster']);
        expect(trail[1]?.detail).toEqual(detail);
      }
    });

    h.test('records nothing when one member is missing, and refuses an empty list', async () => {
      const store = await h.open();
      const { memory } = await store.remember({
        content: 'lonely fragment',
        projectKey: PROJECT_A,
        origin: 'network',
        quarantine: 'pending',
      });
      await expectCode(
        store.recordCluster([memory.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV'], { clusterId: 'c' }),
        'NOT_FOUND',
      );
      expect((await store.auditTrail(memory.id)).map((e) => e.action)).toEqual(['remember']);
      await expectCode(store.recordCluster([], { clusterId: 'c' }), 'INVALID_INPUT');
    });
  });
}
