import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openWebKit, type WebKit } from '../../test/helpers/web-kit.js';
import { ManualClock } from '../store/contract/fixtures.js';

const tempDir = useTempDirs();
const kits: WebKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0)) await kit.app.close();
});
const DAY = 86_400_000;

async function setup(clock: ManualClock, env?: Record<string, string>): Promise<WebKit> {
  const kit = await openWebKit(tempDir(), { clock, ...(env === undefined ? {} : { env }) });
  kits.push(kit);
  return kit;
}

interface LedgerBody {
  reader: string | null;
  totals: {
    injections: number;
    tokens: number;
    sessions: number;
    memories: number;
    withheld: number;
  };
  byDay: { day: string; injections: number; tokens: number }[];
  sessionCount: number;
  sessions: {
    sessionId: string;
    author: string | null;
    entries: { tokens: number; memoryIds: string[] }[];
  }[];
  memories: Record<string, { snippet: string }>;
}

describe('web API: injection ledger', () => {
  it('reports what was injected per session and per day, newest session first, with the memories', async () => {
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');
    const kit = await setup(clock, { MNEMO_AUTHOR: 'ada' });
    const { store } = kit.app;
    const a = (await store.remember({ content: 'Use pnpm here', projectKey: '/a', origin: 'user' }))
      .memory;
    const gone = (await store.remember({ content: 'temporary', projectKey: '/a', origin: 'user' }))
      .memory;
    await store.recordInjection({
      sessionId: 'old',
      event: 'session-start',
      source: 'startup',
      projectKey: '/a',
      memoryIds: [a.id, gone.id],
      tokens: 120,
    });
    clock.advance(DAY);
    await store.recordInjection({
      sessionId: 'new',
      event: 'prompt-recall',
      source: null,
      projectKey: '/b',
      memoryIds: [a.id],
      tokens: 40,
    });
    await store.forget(gone.id);
    const body = await kit.get<LedgerBody>('/api/ledger?days=7');
    expect(body.totals).toEqual({
      injections: 2,
      tokens: 160,
      memories: 2,
      sessions: 2,
      withheld: 0,
    });
    expect(body.byDay).toEqual([
      { day: '2026-03-01', injections: 1, tokens: 120, events: { 'session-start': 1 } },
      { day: '2026-03-02', injections: 1, tokens: 40, events: { 'prompt-recall': 1 } },
    ]);
    expect(body.sessions.map((s) => s.sessionId)).toEqual(['new', 'old']);
    // Read as the viewer's author, whose sessions these are (the store records it on each row).
    expect(body.reader).toBe('ada');
    expect(body.sessions.map((s) => s.author)).toEqual(['ada', 'ada']);
    expect(body.memories[a.id]?.snippet).toBe('Use pnpm here');
    // A forgotten memory stays in the ledger (it is history) but has no view.
    expect(body.sessions[1]?.entries[0]?.memoryIds).toEqual([a.id, gone.id]);
    expect(body.memories[gone.id]).toBeUndefined();

    const onlyA = await kit.get<LedgerBody>('/api/ledger?days=7&project=%2Fa');
    expect(onlyA.sessions.map((s) => s.sessionId)).toEqual(['old']);
    const paged = await kit.get<LedgerBody>('/api/ledger?days=7&limit=1&offset=1');
    expect(paged.sessionCount).toBe(2);
    expect(paged.sessions.map((s) => s.sessionId)).toEqual(['old']);
    const session = await kit.get<LedgerBody>('/api/ledger?days=7&session=new');
    expect(session.totals.injections).toBe(1);
    expect((await kit.request('/api/ledger?days=0')).status).toBe(400);
  });
});

interface DashboardBody {
  totals: { memories: number; pending: number };
  originsOverTime: { key: string; day: string; count: number }[];
  captures: { perProject: boolean; days: { day: string; stored: number; skipped: number }[] };
  heat: { buckets: { from: number; count: number }[]; warm: number; total: number };
}

describe('web API: dashboard', () => {
  it('counts memories by origin per day, captures against skips, and heat, for a project or all', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const kit = await setup(clock);
    const { store } = kit.app;
    const hot = await store.remember({ content: 'hot fact', projectKey: '/a', origin: 'user' });
    await store.remember({
      content: 'a page',
      projectKey: '/a',
      origin: 'network',
      quarantine: 'pending',
    });
    await store.bumpCounter('write.stored', 2);
    await store.bumpCounter('capture.skipped.read_not_captured', 3);
    clock.advance(DAY);
    await store.remember({ content: 'other project', projectKey: '/b', origin: 'user' });
    await store.bumpCounter('capture.skipped.below_length_floor');
    for (let i = 0; i < 5; i += 1) await store.recordAccess([hot.memory.id]);

    const all = await kit.get<DashboardBody>('/api/dashboard?days=7');
    expect(all.totals).toEqual({ memories: 3, pending: 1 });
    expect(all.originsOverTime).toEqual([
      { key: 'network', day: '2026-03-01', count: 1 },
      { key: 'user', day: '2026-03-01', count: 1 },
      { key: 'user', day: '2026-03-02', count: 1 },
    ]);
    expect(all.captures.perProject).toBe(false);
    expect(all.captures.days).toEqual([
      { day: '2026-03-01', stored: 2, merged: 0, rejected: 0, skipped: 3 },
      { day: '2026-03-02', stored: 0, merged: 0, rejected: 0, skipped: 1 },
    ]);
    expect(all.heat.total).toBe(3);
    expect(all.heat.warm).toBe(1);
    expect(all.heat.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(3);
    expect(all.heat.buckets[0]?.count).toBe(2);
    // Five uses put the hot memory well above the cold bucket.
    const warmBucket = all.heat.buckets.findIndex((b, i) => i > 0 && b.count === 1);
    expect(all.heat.buckets[warmBucket]!.from).toBeGreaterThanOrEqual(2);

    const a = await kit.get<DashboardBody>('/api/dashboard?days=7&project=%2Fa');
    expect(a.totals).toEqual({ memories: 2, pending: 1 });
    expect(a.originsOverTime.map((r) => r.key)).toEqual(['network', 'user']);
  });
});
