/**
 * Contract: a store's history (audit entries, injection ledger) read in pages and appended to another
 * store, resumably, for `mnemo migrate-store`. Copied audit entries join the target's own chain and
 * keep a pointer to the original; copied ledger rows keep their time.
 */
import { describe, expect } from 'vitest';

import type { AuditEntry, MemoryStore } from '../store.js';
import type { Harness } from './contract-harness.js';
import { ManualClock, PROJECT_A } from './fixtures.js';

async function seedHistory(store: MemoryStore, clock: ManualClock): Promise<string[]> {
  const ids: string[] = [];
  for (const text of ['first note', 'second note', 'third note']) {
    clock.advance(1000);
    ids.push(
      (await store.remember({ content: text, projectKey: PROJECT_A, origin: 'user' })).memory.id,
    );
  }
  await store.updateMemory(ids[1]!, { tags: ['edited'] });
  for (const [n, event] of (['session-start', 'prompt-recall'] as const).entries()) {
    clock.advance(1000);
    await store.recordInjection({
      sessionId: 's1',
      event,
      source: null,
      projectKey: PROJECT_A,
      memoryIds: ids.slice(n),
      // Prompt recall's last memory went in as an index entry: the copy must keep which.
      ...(event === 'prompt-recall' ? { indexIds: ids.slice(-1) } : {}),
      tokens: 10 + n,
    });
  }
  return ids;
}

export function describeHistoryContract(h: Harness): void {
  describe('history copy', () => {
    h.test(
      'reads the audit log in pages and appends it to another store resumably, chain intact',
      async () => {
        const clock = new ManualClock();
        const source = await h.open({ clock });
        await seedHistory(source, clock);
        const all = await source.readAudit(0, 100);
        expect(all.map((e) => e.action)).toEqual(['remember', 'remember', 'remember', 'update']);
        expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => a - b));
        const firstTwo = await source.readAudit(0, 2);
        expect(firstTwo).toEqual(all.slice(0, 2));
        expect(await source.readAudit(firstTwo.at(-1)!.seq, 100)).toEqual(all.slice(2));

        const target = await h.open();
        expect(await target.importAudit('laptop:/home/dev/.mnemo/mnemo.db', firstTwo)).toBe(2);
        // Resuming with the whole log appends only what is missing; repeating appends nothing.
        expect(await target.importAudit('laptop:/home/dev/.mnemo/mnemo.db', all)).toBe(2);
        expect(await target.importAudit('laptop:/home/dev/.mnemo/mnemo.db', all)).toBe(0);
        const copied: AuditEntry[] = await target.readAudit(0, 100);
        expect(copied.map((e) => [e.at, e.action, e.memoryId])).toEqual(
          all.map((e) => [e.at, e.action, e.memoryId]),
        );
        copied.forEach((entry, i) =>
          expect(entry.detail).toEqual({
            ...all[i]!.detail,
            copiedFrom: {
              source: 'laptop:/home/dev/.mnemo/mnemo.db',
              seq: all[i]!.seq,
              hash: all[i]!.hash,
            },
          }),
        );
        expect(await target.checkIntegrity()).toEqual([]);
        expect((await h.options.inspect(target)).problems).toEqual([]);
        await expect(target.importAudit('  ', all)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
      },
    );

    h.test('copies the injection ledger with its times, skipping rows already there', async () => {
      const clock = new ManualClock();
      const source = await h.open({ clock });
      const ids = await seedHistory(source, clock);
      const rows = await source.readInjections(0, 100);
      expect(rows.map((r) => r.event)).toEqual(['session-start', 'prompt-recall']);
      expect(await source.readInjections(rows[0]!.seq, 100)).toEqual(rows.slice(1));
      const target = await h.open();
      expect(await target.importInjections(rows.slice(0, 1))).toBe(1);
      expect(await target.importInjections(rows)).toBe(1);
      expect(await target.importInjections(rows)).toBe(0);
      const copied = await target.readInjections(0, 100);
      expect(copied.map(({ seq: _seq, ...rest }) => rest)).toEqual(
        rows.map(({ seq: _seq, ...rest }) => rest),
      );
      expect(copied.map((r) => r.indexIds)).toEqual([[], ids.slice(-1)]);
      expect(await target.injectedIds('s1')).toEqual(ids);
      await expect(target.importInjections([{ ...rows[0]!, memoryIds: [] }])).rejects.toMatchObject(
        { code: 'INVALID_INPUT' },
      );
      await expect(source.readAudit(-1, 10)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
}
