import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { OTHER_PROJECT, PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import type { Memory } from '../memory.js';
import { renderMemoriesWithinBudget } from '../render/render-within-budget.js';
import { mayInject, toRenderItem } from './injectable.js';
import {
  CHECKPOINT_BUDGET_SHARE,
  MAX_RECENT_ITEMS,
  planSessionPack,
  rankRecent,
  type SessionPackInput,
} from './session-pack.js';

const NOW = '2026-08-20T12:00:00.000Z';
const NOW_MS = Date.parse(NOW);
const DAY = 86_400_000;
const NONCE = '0123456789abcdef0123456789abcdef';

function daysAgo(days: number): string {
  return new Date(NOW_MS - days * DAY).toISOString();
}

function input(patch: Partial<SessionPackInput> = {}): SessionPackInput {
  return {
    pinned: [],
    recent: [],
    checkpoints: [],
    target: { projectKey: PROJECT, alreadyInjected: new Set() },
    now: NOW,
    budgetTokens: 1500,
    title: 'session start',
    ...patch,
  };
}

function ids(pack: ReturnType<typeof planSessionPack>): string[] {
  return pack.entries.map((entry) => entry.memory.id);
}

function render(pack: ReturnType<typeof planSessionPack>, budgetTokens: number) {
  return renderMemoriesWithinBudget(
    pack.entries.map((entry) => entry.item),
    { nonce: NONCE, title: 'session start', now: NOW, budgetTokens },
  );
}

describe('planSessionPack', () => {
  it('orders pinned memories, then recent decisions, fixes and errors, then the checkpoint', () => {
    const pinned = testMemory({ pinned: true, kind: 'preference' });
    const decision = testMemory({ kind: 'decision', createdAt: daysAgo(1) });
    const fix = testMemory({ kind: 'fix', createdAt: daysAgo(2) });
    const checkpoint = testMemory({ kind: 'checkpoint', createdAt: daysAgo(0) });
    const pack = planSessionPack(
      input({ pinned: [pinned], recent: [fix, decision], checkpoints: [checkpoint] }),
    );
    expect(ids(pack)).toEqual([pinned.id, decision.id, fix.id, checkpoint.id]);
    expect(pack.entries.map((entry) => entry.section)).toEqual([
      'pinned',
      'recent',
      'recent',
      'checkpoint',
    ]);
  });

  it("injects this project's and global memories, never another project's (R4)", () => {
    const mine = testMemory();
    const global = testMemory({ projectKey: OTHER_PROJECT, visibility: 'global' });
    const theirs = testMemory({ projectKey: OTHER_PROJECT });
    const pack = planSessionPack(input({ recent: [mine, global, theirs] }));
    expect(ids(pack).sort()).toEqual([mine.id, global.id].sort());
    expect(pack.withheld).toEqual([{ id: theirs.id, reasons: ['out_of_scope'] }]);
    const nowhere = planSessionPack(
      input({
        recent: [mine, global, theirs],
        target: { projectKey: null, alreadyInjected: new Set() },
      }),
    );
    expect(ids(nowhere)).toEqual([global.id]);
  });

  it('never injects a network, unknown, tainted, quarantined or superseded memory', () => {
    const bad = [
      testMemory({ origin: 'network', quarantine: 'approved', pinned: true }),
      testMemory({ origin: 'unknown', pinned: true }),
      testMemory({ origin: 'agent_tainted', tainted: true }),
      testMemory({ quarantine: 'pending' }),
      testMemory({ supersededBy: '01JFX999999999999999999999' }),
      testMemory({ origin: 'local_exec', kind: 'error' }),
    ];
    const good = testMemory();
    const pack = planSessionPack(
      input({ pinned: bad.slice(0, 2), recent: [...bad.slice(2), good] }),
    );
    expect(ids(pack)).toEqual([good.id]);
    expect(pack.withheld.map((w) => w.id).sort()).toEqual(bad.map((m) => m.id).sort());
  });

  it('skips what the session was already shown and lists a pinned-and-recent memory once', () => {
    const shown = testMemory({ pinned: true });
    const both = testMemory({ pinned: true, kind: 'decision' });
    const fresh = testMemory({ kind: 'error' });
    const twin = testMemory({ contentHash: both.contentHash, visibility: 'global' });
    const pack = planSessionPack(
      input({
        pinned: [shown, both],
        recent: [both, fresh, twin],
        target: { projectKey: PROJECT, alreadyInjected: new Set([shown.id]) },
      }),
    );
    expect(ids(pack)).toEqual([both.id, fresh.id]);
  });

  it('considers only the newest checkpoint of this project, with no older one standing in', () => {
    const newest = testMemory({ kind: 'checkpoint', createdAt: daysAgo(0) });
    const older = testMemory({ kind: 'checkpoint', createdAt: daysAgo(3) });
    expect(ids(planSessionPack(input({ checkpoints: [newest, older] })))).toEqual([newest.id]);
    const seen = { projectKey: PROJECT, alreadyInjected: new Set([newest.id]) };
    expect(ids(planSessionPack(input({ checkpoints: [newest, older], target: seen })))).toEqual([]);
    const tainted = { ...newest, tainted: true };
    expect(ids(planSessionPack(input({ checkpoints: [tainted, older] })))).toEqual([]);
    const foreign = testMemory({
      kind: 'checkpoint',
      projectKey: OTHER_PROJECT,
      visibility: 'global',
    });
    expect(ids(planSessionPack(input({ checkpoints: [foreign] })))).toEqual([]);
    const noProject = { projectKey: null, alreadyInjected: new Set<string>() };
    expect(ids(planSessionPack(input({ checkpoints: [newest], target: noProject })))).toEqual([]);
  });

  it('keeps at most MAX_RECENT_ITEMS recent memories', () => {
    const recent = Array.from({ length: MAX_RECENT_ITEMS + 5 }, (_, i) =>
      testMemory({ content: `decision ${i}`, createdAt: daysAgo(i) }),
    );
    const pack = planSessionPack(input({ recent, budgetTokens: 2400 }));
    expect(pack.entries).toHaveLength(MAX_RECENT_ITEMS);
  });

  it('keeps room for the checkpoint when recent memories would fill the budget, cutting a long one', () => {
    const recent = Array.from({ length: 10 }, (_, i) =>
      testMemory({ content: `Decision ${i}: ${'reason '.repeat(40)}`, createdAt: daysAgo(i) }),
    );
    const checkpoint = testMemory({
      kind: 'checkpoint',
      content: `Checkpoint. ${'next step and detail '.repeat(200)}`,
    });
    const budget = 600;
    const pack = planSessionPack(
      input({ recent, checkpoints: [checkpoint], budgetTokens: budget }),
    );
    expect(pack.entries.at(-1)?.memory.id).toBe(checkpoint.id);
    const rendered = render(pack, budget);
    expect(rendered.included.at(-1)).toBe(checkpoint.id);
    expect(rendered.included).toEqual(ids(pack));
    expect(rendered.truncated).toBe(true);
    expect(rendered.tokens).toBeLessThanOrEqual(budget);
    // Without the reserve the same memories in the same order crowd the checkpoint out.
    const unplanned = renderMemoriesWithinBudget(
      [...recent, checkpoint].map((m) => toRenderItem(m)),
      {
        nonce: NONCE,
        title: 'session start',
        now: NOW,
        budgetTokens: budget,
      },
    );
    expect(unplanned.included).not.toContain(checkpoint.id);
    // The checkpoint's cut-down body gets its share of the budget.
    expect(rendered.text.slice(rendered.text.indexOf(checkpoint.id)).length / 4).toBeGreaterThan(
      budget * CHECKPOINT_BUDGET_SHARE * 0.8,
    );
  });

  it('renders within the budget and only ever eligible, unseen memories (property)', () => {
    const origin = fc.constantFrom('user', 'agent', 'network', 'unknown', 'local_exec', 'bogus');
    const arbMemory = fc
      .record({
        origin,
        kind: fc.constantFrom('decision', 'fix', 'error', 'checkpoint', 'note'),
        pinned: fc.boolean(),
        tainted: fc.boolean(),
        quarantine: fc.constantFrom('none', 'pending', 'approved', 'rejected'),
        global: fc.boolean(),
        other: fc.boolean(),
        age: fc.integer({ min: 0, max: 400 }),
        words: fc.integer({ min: 1, max: 300 }),
      })
      .map((r) =>
        testMemory({
          origin: r.origin,
          kind: r.kind as Memory['kind'],
          pinned: r.pinned,
          tainted: r.tainted,
          quarantine: r.quarantine,
          visibility: r.global ? 'global' : 'project',
          projectKey: r.other ? OTHER_PROJECT : PROJECT,
          createdAt: daysAgo(r.age),
          content: `${r.kind} ${'word '.repeat(r.words)}`,
        }),
      );
    fc.assert(
      fc.property(
        fc.array(arbMemory, { maxLength: 25 }),
        fc.integer({ min: 0, max: 2400 }),
        fc.integer({ min: 0, max: 5 }),
        (memories, budget, seenCount) => {
          const alreadyInjected = new Set(memories.slice(0, seenCount).map((m) => m.id));
          const target = { projectKey: PROJECT, alreadyInjected };
          const pack = planSessionPack(
            input({
              pinned: memories.filter((m) => m.pinned),
              recent: memories.filter((m) => ['decision', 'fix', 'error'].includes(m.kind)),
              checkpoints: memories.filter((m) => m.kind === 'checkpoint'),
              target,
              budgetTokens: budget,
            }),
          );
          const rendered = render(pack, budget);
          expect(rendered.tokens).toBeLessThanOrEqual(budget);
          const byId = new Map(memories.map((m) => [m.id, m]));
          for (const id of rendered.included) {
            expect(mayInject(byId.get(id)!, target)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('planSessionPack with a project page', () => {
  it('leaves out what the page holds, checkpoint included, and still withholds what may not be injected', () => {
    const pinned = testMemory({ pinned: true, createdAt: daysAgo(1) });
    const held = testMemory({ kind: 'decision', createdAt: daysAgo(1) });
    const other = testMemory({ kind: 'fix', createdAt: daysAgo(1) });
    const network = testMemory({ kind: 'decision', origin: 'network', createdAt: daysAgo(1) });
    const checkpoint = testMemory({ kind: 'checkpoint', createdAt: daysAgo(1) });
    const pack = planSessionPack(
      input({
        pinned: [pinned],
        recent: [held, other, network],
        checkpoints: [checkpoint],
        onPage: new Set([pinned.id, held.id, network.id, checkpoint.id]),
      }),
    );
    expect(ids(pack)).toEqual([other.id]);
    expect([...pack.onPage].sort()).toEqual([pinned.id, held.id, checkpoint.id].sort());
    expect(pack.withheld).toEqual([{ id: network.id, reasons: ['origin_not_allowlisted'] }]);
  });
});

describe('rankRecent', () => {
  it('puts newer memories first and lets errors age faster than decisions', () => {
    const error = testMemory({ kind: 'error', createdAt: daysAgo(10) });
    const decision = testMemory({ kind: 'decision', createdAt: daysAgo(20) });
    const fresh = testMemory({ kind: 'fix', createdAt: daysAgo(1) });
    expect(rankRecent([error, decision, fresh], NOW_MS).map((m) => m.id)).toEqual([
      fresh.id,
      decision.id,
      error.id,
    ]);
  });

  it('lifts a memory in genuine use and ranks global ones a little below this project', () => {
    const cold = testMemory({ createdAt: daysAgo(2) });
    const warm = testMemory({ createdAt: daysAgo(2), heatBase: 5, lastAccessedAt: daysAgo(1) });
    expect(rankRecent([cold, warm], NOW_MS).map((m) => m.id)).toEqual([warm.id, cold.id]);
    const global = testMemory({ createdAt: daysAgo(2), visibility: 'global' });
    expect(rankRecent([global, cold], NOW_MS).map((m) => m.id)).toEqual([cold.id, global.id]);
  });

  it('keeps preferences in the recent section, ageing slower than decisions', () => {
    const preference = testMemory({ kind: 'preference', createdAt: daysAgo(40) });
    const decision = testMemory({ kind: 'decision', createdAt: daysAgo(35) });
    expect(rankRecent([decision, preference], NOW_MS).map((m) => m.id)).toEqual([
      preference.id,
      decision.id,
    ]);
    const pack = planSessionPack(input({ recent: [preference] }));
    expect(ids(pack)).toEqual([preference.id]);
  });

  it('drops kinds outside the recent section', () => {
    expect(
      rankRecent([testMemory({ kind: 'note' }), testMemory({ kind: 'checkpoint' })], NOW_MS),
    ).toEqual([]);
  });
});
