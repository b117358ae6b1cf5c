/**
 * Contract: a capture's own time and a provenance mend. A writer that knows when the captured event
 * happened (an import of transcripts) dates the memory then, never later than the write; a mend fills a
 * source URL, tool or earlier time that a memory lacks, audited, and changes nothing else.
 */
import { describe, expect } from 'vitest';

import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';

export function describeProvenanceContract(h: Harness): void {
  describe('provenance', () => {
    h.test(
      'dates a memory at its captured time, never after its write; the audit keeps the write time',
      async () => {
        const clock = new ManualClock();
        const store = await h.open({ clock });
        const writeTime = clock.now().toISOString();
        const past = new Date(clock.now().getTime() - 86_400_000).toISOString();
        const { memory } = await store.remember(
          { content: 'captured yesterday', projectKey: PROJECT_A, origin: 'local_exec' },
          { capturedAt: past },
        );
        expect([memory.createdAt, memory.updatedAt]).toEqual([past, past]);
        const trail = await store.auditTrail(memory.id);
        expect(trail[0]).toMatchObject({ at: writeTime, action: 'remember' });
        expect(trail[0]?.detail['capturedAt']).toBe(past);
        const future = new Date(clock.now().getTime() + 86_400_000).toISOString();
        const later = await store.remember(
          { content: 'claims to be from tomorrow', projectKey: PROJECT_A, origin: 'local_exec' },
          { capturedAt: future },
        );
        expect(later.memory.createdAt).toBe(writeTime);
        const listed = await store.listMemories({
          createdBefore: new Date(clock.now().getTime() - 1000).toISOString(),
          limit: 10,
        });
        expect(listed.map((m) => m.id)).toEqual([memory.id]);
        await expect(
          store.remember(
            { content: 'bad time', projectKey: PROJECT_A },
            { capturedAt: 'yesterday' },
          ),
        ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      },
    );

    h.test(
      'mends only missing provenance, audited, and finds the mended source by site',
      async () => {
        const clock = new ManualClock();
        const store = await h.open({ clock });
        const { memory } = await store.remember({
          content: 'Fetched a page',
          projectKey: PROJECT_A,
          origin: 'network',
        });
        expect(await store.countMemories({ sourceDomains: ['evil.example'] })).toBe(0);
        const earlier = new Date(clock.now().getTime() - 3_600_000).toISOString();
        clock.advance(1000);
        const first = await store.mendProvenance(memory.id, {
          sourceUrl: 'https://docs.evil.example/x',
          originTool: 'WebFetch',
          createdAt: earlier,
        });
        expect(first.changed).toEqual(['createdAt', 'originTool', 'sourceUrl']);
        expect(first.memory).toMatchObject({
          sourceUrl: 'https://docs.evil.example/x',
          originTool: 'WebFetch',
          createdAt: earlier,
          updatedAt: earlier,
          content: memory.content,
          origin: 'network',
          quarantine: memory.quarantine,
        });
        expect(await store.countMemories({ sourceDomains: ['evil.example'] })).toBe(1);
        expect((await store.auditTrail(memory.id)).at(-1)).toMatchObject({
          action: 'mend',
          detail: { fields: ['createdAt', 'originTool', 'sourceUrl'] },
        });
        // What is known is never overwritten, and a later time never moves a memory forward.
        const second = await store.mendProvenance(memory.id, {
          sourceUrl: 'https://good.example/',
          originTool: 'Other',
          createdAt: clock.now().toISOString(),
        });
        expect(second.changed).toEqual([]);
        expect(second.memory.sourceUrl).toBe('https://docs.evil.example/x');
        expect((await store.auditTrail(memory.id)).filter((e) => e.action === 'mend')).toHaveLength(
          1,
        );
        await expect(
          store.mendProvenance(memory.id, { sourceUrl: 'https://x.example/?token=abc' }),
        ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(
          store.mendProvenance('01ARZ3NDEKTSV4RRFFQ69G5FAV', { originTool: 'Edit' }),
        ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      },
    );
  });
}
