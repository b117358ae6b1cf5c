/**
 * Contract: writing, reading, deduping, superseding, updating and forgetting memories.
 */
import { describe, expect } from 'vitest';

import { isMemoryError, type MemoryErrorCode } from '../../core/errors.js';
import { isMemoryId } from '../../core/memory.js';
import { contentHash } from '../content-hash.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A, PROJECT_B, SAMPLE_MEMORIES, vectorOf } from './fixtures.js';

export async function expectCode(promise: Promise<unknown>, code: MemoryErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isMemoryError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
}

const note = (content: string, projectKey = PROJECT_A) => ({ content, projectKey });

export function describeCrudContract(h: Harness): void {
  describe('remember', () => {
    h.test('stores a memory and reads it back by id', async () => {
      const store = await h.open();
      const { memory, created } = await store.remember(SAMPLE_MEMORIES[2]!);
      expect(created).toBe(true);
      expect(await store.getMemory(memory.id)).toEqual(memory);
      expect(memory).toMatchObject({
        content: SAMPLE_MEMORIES[2]!.content,
        projectKey: PROJECT_A,
        kind: 'error',
        tags: ['sqlite', 'concurrency'],
        origin: 'local_exec',
        originTool: 'Bash',
        visibility: 'project',
      });
    });

    h.test('derives id, timestamps, hash and counters itself', async () => {
      const clock = new ManualClock('2025-03-04T05:06:07.089Z');
      const store = await h.open({ clock });
      const { memory } = await store.remember({
        content: '  spaced\r\nnote  ',
        projectKey: PROJECT_A,
      });
      expect(isMemoryId(memory.id)).toBe(true);
      expect(memory).toMatchObject({
        content: 'spaced\nnote',
        createdAt: '2025-03-04T05:06:07.089Z',
        updatedAt: '2025-03-04T05:06:07.089Z',
        lastAccessedAt: null,
        accessCount: 0,
        supersedes: null,
        supersededBy: null,
        embeddingModel: null,
        contentHash: contentHash('spaced\nnote'),
        origin: 'unknown',
        pinned: false,
      });
    });

    h.test('refuses invalid input with INVALID_INPUT and writes nothing', async () => {
      const store = await h.open();
      await expectCode(store.remember(note('   ')), 'INVALID_INPUT');
      await expectCode(store.remember(note('a\u0000b')), 'INVALID_INPUT');
      await expectCode(store.remember({ content: 'x', projectKey: '  ' }), 'INVALID_INPUT');
      await expectCode(
        store.remember(note('x'), { vector: vectorOf('m', [0, 0]) }),
        'INVALID_INPUT',
      );
      await expectCode(
        store.remember(note('x'), { vector: vectorOf('m', [1, Number.NaN]) }),
        'INVALID_INPUT',
      );
      expect(await store.countMemories({ includeSuperseded: true })).toBe(0);
      expect((await h.options.inspect(store)).auditRows).toBe(0);
    });

    h.test(
      'returns the existing memory for the same content in a project and records an access',
      async () => {
        const clock = new ManualClock();
        const store = await h.open({ clock });
        const first = await store.remember(note('Use pnpm, not npm'));
        clock.advance(60_000);
        const again = await store.remember(note('Use   pnpm,\nnot npm'));
        expect(again.created).toBe(false);
        expect(again.memory.id).toBe(first.memory.id);
        expect(again.memory.accessCount).toBe(1);
        expect(again.memory.lastAccessedAt).toBe(clock.now().toISOString());
        expect(await store.countMemories()).toBe(1);
        const trail = await store.auditTrail(first.memory.id);
        expect(trail.map((e) => e.action)).toEqual(['remember', 'dedupe']);
      },
    );

    h.test('keeps the same content in two projects as two memories', async () => {
      const store = await h.open();
      const a = await store.remember(note('shared text', PROJECT_A));
      const b = await store.remember(note('shared text', PROJECT_B));
      expect(b.created).toBe(true);
      expect(b.memory.id).not.toBe(a.memory.id);
    });

    h.test('keeps case differences as different memories', async () => {
      const store = await h.open();
      await store.remember(note('NODE_ENV=production'));
      expect((await store.remember(note('node_env=production'))).created).toBe(true);
    });
  });

  describe('getMemories', () => {
    h.test('returns existing memories in the order asked and skips unknown ids', async () => {
      const store = await h.open();
      const ids: string[] = [];
      for (const input of SAMPLE_MEMORIES.slice(0, 3))
        ids.push((await store.remember(input)).memory.id);
      const got = await store.getMemories([ids[2]!, '01ARZ3NDEKTSV4RRFFQ69G5FAV', ids[0]!]);
      expect(got.map((m) => m.id)).toEqual([ids[2], ids[0]]);
      expect(await store.getMemories([])).toEqual([]);
      expect(await store.getMemory('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBeUndefined();
      expect(await store.getMemory('not an id')).toBeUndefined();
    });
  });

  describe('supersede', () => {
    h.test('links the old and new memory and keeps the old one readable', async () => {
      const store = await h.open();
      const old = await store.remember(note('Deploy with make deploy'));
      const { previous, current } = await store.supersede(
        old.memory.id,
        note('Deploy with just deploy'),
      );
      expect(previous.supersededBy).toBe(current.id);
      expect(current.supersedes).toBe(old.memory.id);
      expect((await store.getMemory(old.memory.id))?.supersededBy).toBe(current.id);
      expect((await store.auditTrail(old.memory.id)).map((e) => e.action)).toEqual([
        'remember',
        'superseded',
      ]);
      expect((await store.auditTrail(current.id)).map((e) => e.action)).toEqual(['supersede']);
    });

    h.test(
      'throws NOT_FOUND for an unknown id and CONFLICT for an already superseded one',
      async () => {
        const store = await h.open();
        await expectCode(store.supersede('01ARZ3NDEKTSV4RRFFQ69G5FAV', note('x')), 'NOT_FOUND');
        const old = await store.remember(note('v1'));
        await store.supersede(old.memory.id, note('v2'));
        await expectCode(store.supersede(old.memory.id, note('v3')), 'CONFLICT');
        expect(await store.countMemories({ includeSuperseded: true })).toBe(2);
      },
    );

    h.test('throws CONFLICT when the replacement duplicates another active memory', async () => {
      const store = await h.open();
      const old = await store.remember(note('old'));
      const other = await store.remember(note('other'));
      await expectCode(store.supersede(old.memory.id, note('other')), 'CONFLICT');
      expect((await store.getMemory(old.memory.id))?.supersededBy).toBeNull();
      expect((await store.getMemory(other.memory.id))?.supersedes).toBeNull();
    });

    h.test('lets superseded text be remembered again as a new active memory', async () => {
      const store = await h.open();
      const tabs = await store.remember(note('Indent with tabs'));
      await store.supersede(tabs.memory.id, note('Indent with spaces'));
      const again = await store.remember(note('Indent with tabs'));
      expect(again.created).toBe(true);
      expect(again.memory.id).not.toBe(tabs.memory.id);
      expect(await store.countMemories()).toBe(2);
    });
  });

  describe('updateMemory', () => {
    h.test('changes fields in place and re-indexes new content', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const { memory } = await store.remember(note('The cache lives in redis'));
      clock.advance(1000);
      const updated = await store.updateMemory(memory.id, {
        content: 'The cache lives in memcached',
        tags: ['Cache'],
        kind: 'fact',
        pinned: true,
        visibility: 'global',
      });
      expect(updated).toMatchObject({
        id: memory.id,
        content: 'The cache lives in memcached',
        tags: ['cache'],
        kind: 'fact',
        pinned: true,
        visibility: 'global',
        createdAt: memory.createdAt,
        updatedAt: clock.now().toISOString(),
        contentHash: contentHash('The cache lives in memcached'),
      });
      const all = { limit: 10 };
      expect(await store.searchLexical('redis', all)).toEqual([]);
      expect((await store.searchLexical('memcached', all)).map((x) => x.id)).toEqual([memory.id]);
    });

    h.test('drops the vector when the content changes and keeps it otherwise', async () => {
      const store = await h.open();
      const { memory } = await store.remember(note('vectorised'), {
        vector: vectorOf('m', [1, 0]),
      });
      const tagged = await store.updateMemory(memory.id, { tags: ['x'] });
      expect(tagged.embeddingModel).toBe('m');
      const changed = await store.updateMemory(memory.id, { content: 'rewritten' });
      expect(changed.embeddingModel).toBeNull();
      expect(await store.searchVector(vectorOf('m', [1, 0]), { limit: 5 })).toEqual([]);
      expect((await h.options.inspect(store)).vectorRows).toBe(0);
    });

    h.test(
      'records the actor of a change in its audit entry, never as a field, and no entry for an actor alone',
      async () => {
        const store = await h.open();
        const { memory } = await store.remember(note('the port is 8080'));
        const edited = await store.updateMemory(memory.id, {
          content: 'the port is 8081',
          pinned: true,
          actor: 'web-ui:alice',
        });
        expect(edited).not.toHaveProperty('actor');
        await store.updateMemory(memory.id, { tags: ['ops'] });
        // Nothing but an actor changes nothing: no entry, the row as it was.
        expect(await store.updateMemory(memory.id, { actor: 'web-ui:alice' })).toEqual(
          await store.getMemory(memory.id),
        );
        const updates = (await store.auditTrail(memory.id)).filter((e) => e.action === 'update');
        expect(updates.map((e) => e.detail)).toEqual([
          {
            fields: ['content', 'pinned'],
            contentHash: contentHash('the port is 8081'),
            actor: 'web-ui:alice',
          },
          { fields: ['tags'], contentHash: contentHash('the port is 8081') },
        ]);
      },
    );

    h.test('throws NOT_FOUND for an unknown id and CONFLICT for duplicate content', async () => {
      const store = await h.open();
      await expectCode(
        store.updateMemory('01ARZ3NDEKTSV4RRFFQ69G5FAV', { pinned: true }),
        'NOT_FOUND',
      );
      const a = await store.remember(note('alpha'));
      await store.remember(note('beta'));
      await expectCode(store.updateMemory(a.memory.id, { content: 'beta' }), 'CONFLICT');
      await expectCode(store.updateMemory(a.memory.id, { content: ' ' }), 'INVALID_INPUT');
      expect((await store.getMemory(a.memory.id))?.content).toBe('alpha');
    });
  });

  describe('forget', () => {
    h.test('removes the row, its lexical entry and its vector', async () => {
      const store = await h.open();
      const keep = await store.remember(note('keep the zebra'), { vector: vectorOf('m', [0, 1]) });
      const gone = await store.remember(note('forget the zebra'), {
        vector: vectorOf('m', [1, 0]),
      });
      const before = await h.options.inspect(store);
      expect(await store.forget(gone.memory.id)).toBe(true);
      const after = await h.options.inspect(store);
      expect(await store.getMemory(gone.memory.id)).toBeUndefined();
      expect((await store.searchLexical('zebra', { limit: 10 })).map((x) => x.id)).toEqual([
        keep.memory.id,
      ]);
      const near = await store.searchVector(vectorOf('m', [1, 0]), { limit: 10 });
      expect(near.map((x) => x.id)).toEqual([keep.memory.id]);
      expect(after).toMatchObject({
        memories: before.memories - 1,
        lexicalRows: before.lexicalRows - 1,
        vectorRows: before.vectorRows - 1,
        auditRows: before.auditRows + 1,
        problems: [],
      });
      expect(await store.forget(gone.memory.id)).toBe(false);
    });

    h.test(
      'records who deleted a memory in the kept audit entry, and nobody when not told',
      async () => {
        const store = await h.open();
        const byPerson = await store.remember(note('deleted by a person'));
        const byTool = await store.remember(note('deleted by a tool'));
        expect(await store.forget(byPerson.memory.id, { actor: 'web-ui:alice' })).toBe(true);
        expect(await store.forget(byTool.memory.id)).toBe(true);
        const forgets = async (id: string) =>
          (await store.auditTrail(id)).filter((e) => e.action === 'forget').map((e) => e.detail);
        expect(await forgets(byPerson.memory.id)).toEqual([
          {
            contentHash: contentHash('deleted by a person'),
            projectKey: PROJECT_A,
            actor: 'web-ui:alice',
          },
        ]);
        expect(await forgets(byTool.memory.id)).toEqual([
          { contentHash: contentHash('deleted by a tool'), projectKey: PROJECT_A },
        ]);
        expect((await h.options.inspect(store)).problems).toEqual([]);
      },
    );
  });

  describe('recordAccess', () => {
    h.test('counts one access per listed memory and ignores unknown ids', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const a = await store.remember({ ...note('a'), origin: 'user' });
      const b = await store.remember({ ...note('b'), origin: 'network' });
      const c = await store.remember(note('c'));
      clock.advance(5000);
      await store.recordAccess([
        a.memory.id,
        b.memory.id,
        a.memory.id,
        '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      ]);
      const [ma, mb, mc] = await store.getMemories([a.memory.id, b.memory.id, c.memory.id]);
      expect([ma!.accessCount, mb!.accessCount, mc!.accessCount]).toEqual([1, 1, 0]);
      expect(ma!.lastAccessedAt).toBe(clock.now().toISOString());
      expect(mb!.lastAccessedAt).toBe(clock.now().toISOString());
      expect(mc!.lastAccessedAt).toBeNull();
      await store.recordAccess([]);
    });

    h.test('heats trusted origins on use and never untrusted ones', async () => {
      const clock = new ManualClock();
      const store = await h.open({ clock });
      const user = await store.remember({ ...note('used by a person'), origin: 'user' });
      const web = await store.remember({ ...note('fetched from the web'), origin: 'network' });
      for (let i = 0; i < 5; i += 1) {
        clock.advance(60_000);
        await store.recordAccess([user.memory.id, web.memory.id]);
      }
      const [hot, cold] = await store.getMemories([user.memory.id, web.memory.id]);
      expect(hot!.heatBase).toBeGreaterThan(user.memory.heatBase + 1);
      expect(hot!.heatBase).toBeLessThanOrEqual(10);
      expect(cold!.heatBase).toBeLessThanOrEqual(web.memory.heatBase);
      expect(cold!.accessCount).toBe(5);
    });
  });

  describe('vectors', () => {
    h.test(
      'setVector stores, replaces and switches models, keeping embeddingModel in sync',
      async () => {
        const store = await h.open();
        const { memory } = await store.remember(note('embed me'));
        await expectCode(
          store.setVector('01ARZ3NDEKTSV4RRFFQ69G5FAV', vectorOf('m', [1])),
          'NOT_FOUND',
        );
        await store.setVector(memory.id, vectorOf('m1', [1, 0, 0]));
        await store.setVector(memory.id, vectorOf('m1', [0, 1, 0]));
        expect((await h.options.inspect(store)).vectorRows).toBe(1);
        expect(
          (await store.searchVector(vectorOf('m1', [0, 1, 0]), { limit: 1 }))[0]?.distance,
        ).toBeCloseTo(0, 5);
        await store.setVector(memory.id, vectorOf('m2', [1, 1]));
        expect((await store.getMemory(memory.id))?.embeddingModel).toBe('m2');
        expect(await store.searchVector(vectorOf('m1', [0, 1, 0]), { limit: 1 })).toEqual([]);
        expect((await h.options.inspect(store)).vectorRows).toBe(1);
      },
    );

    h.test(
      'listUnembedded returns active memories without a vector of the model, oldest first',
      async () => {
        const store = await h.open();
        const a = await store.remember(note('a'));
        const b = await store.remember(note('b'), { vector: vectorOf('m', [1]) });
        const c = await store.remember(note('c'), { vector: vectorOf('other', [1]) });
        const d = await store.remember(note('d'));
        await store.supersede(d.memory.id, note('d2'), { vector: vectorOf('m', [1]) });
        const pending = await store.listUnembedded('m', 10);
        expect(pending.map((m) => m.id)).toEqual([a.memory.id, c.memory.id]);
        expect(await store.listUnembedded('m', 1)).toHaveLength(1);
        expect(b.memory.embeddingModel).toBe('m');
      },
    );
  });

  describe('stats and audit', () => {
    h.test('stats counts memories by kind, origin, project and vector model', async () => {
      const store = await h.open();
      for (const input of SAMPLE_MEMORIES) await store.remember(input);
      const first = (await store.listMemories({ limit: 1 }))[0]!;
      await store.supersede(
        first.id,
        { ...SAMPLE_MEMORIES[0]!, content: 'new' },
        {
          vector: vectorOf('m', [1, 2]),
        },
      );
      const stats = await store.stats();
      expect(stats).toMatchObject({
        schemaVersion: store.schemaVersion,
        memories: 7,
        superseded: 1,
        byProject: { [PROJECT_A]: 4, [PROJECT_B]: 3 },
        vectors: { m: 1 },
      });
      expect(stats.byKind.fact).toBe(3);
      expect(stats.byOrigin.user).toBe(5);
    });

    h.test('audit entries carry distinct sha256 hashes, oldest first', async () => {
      const store = await h.open();
      const { memory } = await store.remember(note('audited'));
      await store.updateMemory(memory.id, { pinned: true });
      await store.setVector(memory.id, vectorOf('m', [1]));
      await store.forget(memory.id);
      const trail = await store.auditTrail(memory.id);
      expect(trail.map((e) => e.action)).toEqual(['remember', 'update', 'set-vector', 'forget']);
      expect(trail.every((e) => /^[0-9a-f]{64}$/.test(e.hash))).toBe(true);
      expect(new Set(trail.map((e) => e.hash)).size).toBe(4);
      expect(trail.map((e) => e.seq)).toEqual([...trail.map((e) => e.seq)].sort((x, y) => x - y));
    });
  });
}
