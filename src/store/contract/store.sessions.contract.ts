/**
 * Contract: per-session write-path state — taint windows, remember claims, flood-control counts and
 * daily counters — and atomicity of every write-path method.
 */
import { describe, expect } from 'vitest';

import type { MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';
import { expectCode } from './store.crud.contract.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const MINUTE = 60_000;

async function exportAll(store: MemoryStore): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const record of store.exportMemories()) out.push(record);
  return out;
}

export function describeSessionsContract(h: Harness): void {
  describe('session taint', () => {
    h.test('reports an unknown session as untainted', async () => {
      const store = await h.open();
      expect(await store.getSessionTaint('never-seen')).toEqual({
        sessionId: 'never-seen',
        tainted: false,
        since: null,
        origin: null,
        toolName: null,
      });
    });

    h.test('opens a window once and keeps its earliest start, origin and tool', async () => {
      const clock = new ManualClock('2025-05-01T08:00:00.000Z');
      const store = await h.open({ clock });
      await store.markSessionTainted('s1', 'network', 'WebFetch');
      clock.advance(MINUTE);
      await store.markSessionTainted('s1', 'unknown', 'mcp__other__tool');
      const open = {
        sessionId: 's1',
        tainted: true,
        since: '2025-05-01T08:00:00.000Z',
        origin: 'network',
        toolName: 'WebFetch',
      };
      expect(await store.getSessionTaint('s1')).toEqual(open);
      expect((await store.getSessionTaint('s2')).tainted).toBe(false);
      await store.markSessionTainted('s2', 'agent_tainted', null);
      expect(await store.getSessionTaint('s2')).toMatchObject({ tainted: true, toolName: null });
      expect(await store.getSessionTaint('s1')).toEqual(open);
    });

    h.test(
      'clears the window, tolerates clearing an unknown session, and reopens later',
      async () => {
        const clock = new ManualClock('2025-05-01T08:00:00.000Z');
        const store = await h.open({ clock });
        await store.markSessionTainted('s1', 'network', 'WebSearch');
        await store.clearSessionTaint('s1');
        await store.clearSessionTaint('s1');
        await store.clearSessionTaint('never-seen');
        expect(await store.getSessionTaint('s1')).toMatchObject({ tainted: false, since: null });
        clock.advance(5 * MINUTE);
        await store.markSessionTainted('s1', 'unknown', 'Task');
        expect(await store.getSessionTaint('s1')).toEqual({
          sessionId: 's1',
          tainted: true,
          since: '2025-05-01T08:05:00.000Z',
          origin: 'unknown',
          toolName: 'Task',
        });
      },
    );

    h.test('refuses an empty session id or origin', async () => {
      const store = await h.open();
      await expectCode(store.markSessionTainted('', 'network', null), 'INVALID_INPUT');
      await expectCode(store.markSessionTainted('s1', ' ', null), 'INVALID_INPUT');
      await expectCode(store.clearSessionTaint(''), 'INVALID_INPUT');
    });
  });

  describe('remember claims', () => {
    h.test('hands out a claim once, newest first, with the time it was recorded', async () => {
      const clock = new ManualClock('2025-05-01T08:00:00.000Z');
      const store = await h.open({ clock });
      await store.recordRememberClaim({ sessionId: 'old', contentHash: HASH_A, toolUseId: 't1' });
      clock.advance(1000);
      await store.recordRememberClaim({ sessionId: 'new', contentHash: HASH_A, toolUseId: null });
      await store.recordRememberClaim({ sessionId: 'other', contentHash: HASH_B, toolUseId: 't3' });
      expect(await store.takeRememberClaim(HASH_A, MINUTE)).toEqual({
        sessionId: 'new',
        contentHash: HASH_A,
        toolUseId: null,
        at: '2025-05-01T08:00:01.000Z',
      });
      expect(await store.takeRememberClaim(HASH_A, MINUTE)).toMatchObject({ sessionId: 'old' });
      expect(await store.takeRememberClaim(HASH_A, MINUTE)).toBeUndefined();
      expect(await store.takeRememberClaim('c'.repeat(64), MINUTE)).toBeUndefined();
      expect(await store.takeRememberClaim(HASH_B, MINUTE)).toMatchObject({ toolUseId: 't3' });
    });

    h.test('ignores claims older than maxAgeMs and keeps them for a longer window', async () => {
      const clock = new ManualClock('2025-05-01T08:00:00.000Z');
      const store = await h.open({ clock });
      await store.recordRememberClaim({ sessionId: 's1', contentHash: HASH_A, toolUseId: null });
      clock.advance(30_001);
      expect(await store.takeRememberClaim(HASH_A, 30_000)).toBeUndefined();
      expect(await store.takeRememberClaim(HASH_A, 30_001)).toMatchObject({ sessionId: 's1' });
      await store.recordRememberClaim({ sessionId: 's2', contentHash: HASH_A, toolUseId: null });
      expect(await store.takeRememberClaim(HASH_A, 0)).toMatchObject({ sessionId: 's2' });
      await expectCode(store.takeRememberClaim(HASH_A, -1), 'INVALID_INPUT');
      await expectCode(store.takeRememberClaim(HASH_A, Number.NaN), 'INVALID_INPUT');
    });

    h.test('refuses a claim without a session id or content hash', async () => {
      const store = await h.open();
      await expectCode(
        store.recordRememberClaim({ sessionId: '', contentHash: HASH_A, toolUseId: null }),
        'INVALID_INPUT',
      );
      await expectCode(
        store.recordRememberClaim({ sessionId: 's', contentHash: '', toolUseId: null }),
        'INVALID_INPUT',
      );
    });
  });

  describe('countSessionWrites', () => {
    h.test('counts the memories of one session and origin created since a time', async () => {
      const clock = new ManualClock('2025-05-01T08:00:00.000Z');
      const store = await h.open({ clock });
      const write = async (content: string, sessionId: string, origin: string) => {
        clock.advance(MINUTE);
        return (await store.remember({ content, projectKey: PROJECT_A, sessionId, origin })).memory;
      };
      await write('first agent note', 's1', 'agent');
      const second = await write('second agent note', 's1', 'agent');
      const third = await write('third agent note', 's1', 'agent');
      await write('tainted note', 's1', 'agent_tainted');
      await write('other session note', 's2', 'agent');
      // Superseded and rejected writes were still writes.
      await store.setQuarantine(third.id, 'rejected', 'cli');
      await store.supersede(second.id, {
        content: 'revised',
        projectKey: PROJECT_A,
        origin: 'user',
      });
      expect(await store.countSessionWrites('s1', 'agent', second.createdAt)).toBe(2);
      expect(await store.countSessionWrites('s1', 'agent', '2025-05-01T08:00:00Z')).toBe(3);
      expect(await store.countSessionWrites('s1', 'agent', '2025-05-01T09:00:00.000Z')).toBe(0);
      expect(await store.countSessionWrites('s1', 'agent_tainted', '2025-05-01')).toBe(1);
      expect(await store.countSessionWrites('s3', 'agent', '2025-05-01')).toBe(0);
      await expectCode(store.countSessionWrites('s1', 'agent', 'yesterday'), 'INVALID_INPUT');
    });
  });

  describe('counters', () => {
    h.test('adds to the counter of the current UTC day and reads days in order', async () => {
      const clock = new ManualClock('2025-05-01T23:59:59.000Z');
      const store = await h.open({ clock });
      await store.bumpCounter('captures.stored');
      await store.bumpCounter('captures.stored', 4);
      await store.bumpCounter('captures.skipped.duplicate');
      clock.advance(1000);
      await store.bumpCounter('captures.stored');
      await store.bumpCounter('captures.stored', 0);
      expect(await store.readCounters('2025-05-01')).toEqual([
        { day: '2025-05-01', name: 'captures.skipped.duplicate', value: 1 },
        { day: '2025-05-01', name: 'captures.stored', value: 5 },
        { day: '2025-05-02', name: 'captures.stored', value: 1 },
      ]);
      expect(await store.readCounters('2025-05-02')).toEqual([
        { day: '2025-05-02', name: 'captures.stored', value: 1 },
      ]);
      expect(await store.readCounters('2025-05-03')).toEqual([]);
    });

    h.test('refuses a bad counter name, increment or day', async () => {
      const store = await h.open();
      await expectCode(store.bumpCounter(''), 'INVALID_INPUT');
      await expectCode(store.bumpCounter('x', 1.5), 'INVALID_INPUT');
      await expectCode(store.readCounters('May 1st'), 'INVALID_INPUT');
      await expectCode(store.readCounters('2025-13-45'), 'INVALID_INPUT');
    });
  });

  describe('write-path atomicity', () => {
    h.test('leaves no trace of a write-path method whose transaction fails', async () => {
      let failing = false;
      const store = await h.open({
        onBeforeCommit: (action) => {
          if (failing) throw new Error(`injected failure in ${action}`);
        },
      });
      const { memory } = await store.remember({
        content: 'reviewed',
        projectKey: PROJECT_A,
        origin: 'network',
      });
      await store.markSessionTainted('tainted', 'network', 'WebFetch');
      await store.recordRememberClaim({ sessionId: 's', contentHash: HASH_A, toolUseId: null });
      await store.bumpCounter('c');
      const exported = await exportAll(store);
      const before = await h.options.inspect(store);
      const trail = await store.auditTrail(memory.id);
      failing = true;
      const attempts: (() => Promise<unknown>)[] = [
        () => store.setQuarantine(memory.id, 'approved', 'cli'),
        () => store.recordMerge(memory.id, { similarity: 1 }),
        () => store.markSessionTainted('fresh', 'network', 'WebFetch'),
        () => store.clearSessionTaint('tainted'),
        () => store.recordRememberClaim({ sessionId: 's2', contentHash: HASH_B, toolUseId: null }),
        () => store.takeRememberClaim(HASH_A, MINUTE),
        () => store.bumpCounter('c', 5),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/injected failure/);
      failing = false;
      expect(await h.options.inspect(store)).toEqual(before);
      expect(await exportAll(store)).toEqual(exported);
      expect(await store.auditTrail(memory.id)).toEqual(trail);
      expect((await store.getSessionTaint('fresh')).tainted).toBe(false);
      expect((await store.getSessionTaint('tainted')).tainted).toBe(true);
      expect(await store.takeRememberClaim(HASH_B, MINUTE)).toBeUndefined();
      expect(await store.takeRememberClaim(HASH_A, MINUTE)).toMatchObject({ sessionId: 's' });
      expect((await store.readCounters('2000-01-01')).map((c) => c.value)).toEqual([1]);
    });
  });
}
