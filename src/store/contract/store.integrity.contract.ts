/**
 * Contract: atomicity (a failed transaction leaves no trace), index consistency under any write
 * sequence, several OS processes writing at once, and export → import identity.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { describe, expect } from 'vitest';

import { isMemoryError } from '../../core/errors.js';
import {
  GATE_REASONS,
  MEMORY_KINDS,
  type NewMemory,
  QUARANTINE_STATES,
} from '../../core/memory.js';
import type { ExportedMemory, MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A, PROJECT_B, vectorOf } from './fixtures.js';

const CHILD = fileURLToPath(new URL('./child-writer.mjs', import.meta.url));

async function exportAll(store: MemoryStore): Promise<ExportedMemory[]> {
  const out: ExportedMemory[] = [];
  for await (const record of store.exportMemories()) out.push(record);
  return out;
}

function runChild(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const newMemoryArb: fc.Arbitrary<NewMemory> = fc.record({
  content: fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
    .filter((s) => s.trim().length > 0 && !s.includes('\u0000')),
  projectKey: fc.constantFrom(PROJECT_A, PROJECT_B),
  visibility: fc.constantFrom('project' as const, 'global' as const),
  kind: fc.constantFrom(...MEMORY_KINDS),
  tags: fc.uniqueArray(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { maxLength: 4 }),
  origin: fc.constantFrom('user', 'agent', 'local_exec', 'network', 'unknown'),
  originTool: fc.option(fc.constantFrom('Bash', 'WebFetch'), { nil: null }),
  sessionId: fc.option(fc.uuid(), { nil: null }),
  pinned: fc.boolean(),
  heatBase: fc.double({ min: 0, max: 10, noNaN: true }),
  tainted: fc.boolean(),
  quarantine: fc.option(fc.constantFrom(...QUARANTINE_STATES), { nil: undefined }),
  redactions: fc.nat({ max: 5 }),
  gateReason: fc.constantFrom(...GATE_REASONS),
});

type Op =
  | { op: 'remember'; input: NewMemory; vector: number[] | null }
  | {
      op: 'supersede' | 'update' | 'forget' | 'access' | 'vector' | 'review' | 'merge';
      target: number;
      input: NewMemory;
    };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('remember' as const),
    input: newMemoryArb,
    vector: fc.option(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 3, maxLength: 3 }), {
      nil: null,
    }),
  }),
  fc.record({
    op: fc.constantFrom(
      'supersede' as const,
      'update' as const,
      'forget' as const,
      'access' as const,
      'vector' as const,
      'review' as const,
      'merge' as const,
    ),
    target: fc.nat(),
    input: newMemoryArb,
  }),
);

/** Applies ops, ignoring the domain errors a random sequence legitimately provokes. */
async function applyOps(store: MemoryStore, ops: readonly Op[], clock: ManualClock): Promise<void> {
  for (const op of ops) {
    clock.advance(1000);
    const all = await store.listMemories({
      limit: 1000,
      includeSuperseded: true,
      quarantine: QUARANTINE_STATES,
    });
    const target =
      all.length === 0 || op.op === 'remember' ? undefined : all[op.target % all.length];
    try {
      if (op.op === 'remember') {
        const vector = op.vector?.some((v) => v !== 0) ? vectorOf('m', op.vector) : undefined;
        await store.remember(op.input, { vector });
      } else if (target === undefined) {
        await store.remember(op.input);
      } else if (op.op === 'supersede') {
        await store.supersede(target.id, op.input, { vector: vectorOf('m', [1, 2, 3]) });
      } else if (op.op === 'update') {
        await store.updateMemory(target.id, { content: op.input.content, tags: op.input.tags });
      } else if (op.op === 'forget') {
        await store.forget(target.id);
      } else if (op.op === 'access') {
        await store.recordAccess([target.id]);
      } else if (op.op === 'review') {
        await store.setQuarantine(target.id, op.input.quarantine ?? 'rejected', 'cli');
      } else if (op.op === 'merge') {
        await store.recordMerge(target.id, { similarity: 0.99 });
      } else {
        await store.setVector(target.id, vectorOf('m', [3, 2, 1]));
      }
    } catch (error) {
      if (!isMemoryError(error)) throw error;
    }
  }
}

export function describeIntegrityContract(h: Harness): void {
  describe('atomicity', () => {
    h.test('leaves no trace of a transaction that fails before commit', async () => {
      let failing = false;
      const store = await h.open({
        onBeforeCommit: (action) => {
          if (failing) throw new Error(`injected failure in ${action}`);
        },
      });
      const base = await store.remember(
        { content: 'baseline memory', projectKey: PROJECT_A },
        { vector: vectorOf('m', [1, 0]) },
      );
      const other = await store.remember({ content: 'second memory', projectKey: PROJECT_A });
      const exported = await exportAll(store);
      const before = await h.options.inspect(store);
      failing = true;
      const attempts: (() => Promise<unknown>)[] = [
        () =>
          store.remember(
            { content: 'ghost note', projectKey: PROJECT_A },
            { vector: vectorOf('m', [0, 1]) },
          ),
        () => store.remember({ content: 'baseline memory', projectKey: PROJECT_A }),
        () =>
          store.supersede(base.memory.id, { content: 'ghost replacement', projectKey: PROJECT_A }),
        () => store.updateMemory(base.memory.id, { content: 'ghost update', tags: ['ghost'] }),
        () => store.forget(other.memory.id),
        () => store.setVector(other.memory.id, vectorOf('m', [0, 1])),
        () => store.recordAccess([base.memory.id]),
        () =>
          store.importMemory({
            ...exported[0]!,
            id: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
            projectKey: PROJECT_B,
          }),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/injected failure/);
      failing = false;
      expect(await h.options.inspect(store)).toEqual(before);
      expect(await exportAll(store)).toEqual(exported);
      expect(await store.searchLexical('ghost', { limit: 10, includeSuperseded: true })).toEqual(
        [],
      );
    });

    h.test(
      'keeps the lexical and vector indexes in sync after any sequence of writes',
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
            const clock = new ManualClock();
            const store = await h.open({ clock });
            await applyOps(store, ops, clock);
            const inspection = await h.options.inspect(store);
            expect(inspection.problems).toEqual([]);
            expect(await store.checkIntegrity()).toEqual([]);
            expect(inspection.lexicalRows).toBe(inspection.memories);
            const embedded = (await exportAll(store)).filter((m) => m.vector !== null).length;
            expect(inspection.vectorRows).toBe(embedded);
            await store.close();
          }),
          { numRuns: 25 },
        );
      },
      120_000,
    );
  });

  describe('several processes', () => {
    h.test(
      'loses no write when OS processes write one store at once',
      async () => {
        const { multiProcess } = h.options;
        if (multiProcess === undefined) return;
        const target = await multiProcess();
        const writers = 3;
        const perWriter = 200;
        const args = (n: number) => [JSON.stringify(target.child), String(n), String(perWriter)];
        const results = await Promise.all(
          Array.from({ length: writers }, (_, n) => runChild(args(n))),
        );
        for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
        const store = await target.open();
        try {
          expect(await store.countMemories()).toBe(writers * perWriter);
          for (let n = 0; n < writers; n += 1) {
            expect(await store.countMemories({ tags: [`writer-${n}`] })).toBe(perWriter);
          }
          const inspection = await h.options.inspect(store);
          expect(inspection).toMatchObject({
            memories: writers * perWriter,
            lexicalRows: writers * perWriter,
            vectorRows: writers * perWriter,
            auditRows: writers * perWriter,
            problems: [],
          });
          expect(await store.searchLexical('concurrent capture', { limit: 1000 })).toHaveLength(
            writers * perWriter,
          );
        } finally {
          await store.close();
        }
      },
      120_000,
    );
  });

  describe('export and import', () => {
    h.test(
      'reproduces every record byte for byte through an empty store (property)',
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 15 }), async (ops) => {
            const clock = new ManualClock();
            const source = await h.open({ clock });
            await applyOps(source, ops, clock);
            const first = await exportAll(source);
            const target = await h.open();
            for (const record of first) expect(await target.importMemory(record)).toBe('imported');
            const second = await exportAll(target);
            expect(second.map((r) => JSON.stringify(r))).toEqual(
              first.map((r) => JSON.stringify(r)),
            );
            expect((await h.options.inspect(target)).problems).toEqual([]);
            await source.close();
            await target.close();
          }),
          { numRuns: 20 },
        );
      },
      120_000,
    );

    h.test('skips a record whose id exists and refuses a tampered one', async () => {
      const store = await h.open();
      const { memory } = await store.remember(
        { content: 'exported once', projectKey: PROJECT_A },
        { vector: vectorOf('m', [1, 2]) },
      );
      const [record] = await exportAll(store);
      expect(record?.vector).toEqual({ model: 'm', dims: 2, values: [1, 2] });
      expect(await store.importMemory(record!)).toBe('skipped');
      const other = await h.open();
      const tampered = { ...record!, content: 'exported twice' };
      await expect(other.importMemory(tampered)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      const mismatched = { ...record!, embeddingModel: null };
      await expect(other.importMemory(mismatched)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      expect(await other.countMemories({ includeSuperseded: true })).toBe(0);
      expect(await other.importMemory(record!)).toBe('imported');
      const twin = { ...record!, id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' };
      await expect(other.importMemory(twin)).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await other.getMemory(memory.id)).toEqual(await store.getMemory(memory.id));
    });
  });
}
