import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { openWebKit, type WebKit } from '../../test/helpers/web-kit.js';
import { ManualClock } from '../store/contract/fixtures.js';
import { FEED_POLL_MS } from './api-sessions.js';
import type { TimelineEvent } from './web-views.js';

const tempDir = useTempDirs();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const app of open.splice(0).reverse()) await app.close();
});

interface Timeline {
  session: string;
  captures: number;
  injections: number;
  tokens: number;
  events: TimelineEvent[];
}

/** The viewer as ada, and erin writing to the same store (a team: private memories are per author). */
async function setup(clock?: ManualClock): Promise<{ kit: WebKit; erin: TestApp }> {
  const home = tempDir();
  const kit = await openWebKit(home, {
    env: { MNEMO_AUTHOR: 'ada' },
    ...(clock === undefined ? {} : { clock }),
  });
  open.push(kit.app);
  const erin = await openTestApp(home, { env: { MNEMO_AUTHOR: 'erin' } });
  open.push(erin);
  return { kit, erin };
}

describe('web API: a session timeline', () => {
  it('lists what the session captured and every injection into it, in time order, with what was withheld and why and what went in as an index line only', async () => {
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');
    const { kit } = await setup(clock);
    const { store } = kit.app;
    const pnpm = (
      await store.remember({ content: 'Use pnpm here', projectKey: '/a', origin: 'user' })
    ).memory;
    const gone = (await store.remember({ content: 'temporary', projectKey: '/a', origin: 'user' }))
      .memory;
    clock.advance(60_000);
    await store.recordInjection({
      sessionId: 's1',
      event: 'session-start',
      source: 'startup',
      projectKey: '/a',
      memoryIds: [pnpm.id, gone.id],
      tokens: 120,
      withheld: [{ id: gone.id, reasons: ['tainted'] }],
    });
    await store.forget(gone.id);
    clock.advance(60_000);
    const captured = (
      await store.remember({
        content: 'npm test failed: missing env',
        projectKey: '/a',
        origin: 'local_exec',
        originTool: 'Bash',
        sessionId: 's1',
        kind: 'error',
      })
    ).memory;
    clock.advance(60_000);
    await store.recordInjection({
      sessionId: 's1',
      event: 'prompt-recall',
      source: null,
      projectKey: '/a',
      memoryIds: [captured.id],
      indexIds: [captured.id],
      tokens: 30,
    });
    await store.recordInjection({
      sessionId: 'another',
      event: 'session-start',
      source: 'startup',
      projectKey: '/a',
      memoryIds: [pnpm.id],
      tokens: 99,
    });
    const timeline = await kit.get<Timeline>('/api/sessions/s1');
    expect(timeline).toMatchObject({ session: 's1', captures: 1, injections: 2, tokens: 150 });
    expect(
      timeline.events.map((e) =>
        e.type === 'capture'
          ? ['capture', e.at, e.memory.id]
          : [e.event, e.at, e.source, e.tokens, e.memories.map((m) => m.id), e.gone, e.indexed],
      ),
    ).toEqual([
      ['session-start', '2026-03-01T09:01:00.000Z', 'startup', 120, [pnpm.id], 1, []],
      ['capture', '2026-03-01T09:02:00.000Z', captured.id],
      // Prompt recall showed the error as an index line only, and the timeline says so.
      ['prompt-recall', '2026-03-01T09:03:00.000Z', null, 30, [captured.id], 0, [captured.id]],
    ]);
    const start = timeline.events[0];
    expect(start?.type === 'injection' ? start.withheld : undefined).toEqual([
      {
        id: gone.id,
        reasons: [{ reason: 'tainted', meaning: 'it was written in a tainted session' }],
      },
    ]);
  });

  it("never shows another author's private memories, captured or injected", async () => {
    const { kit, erin } = await setup();
    const theirs = (
      await erin.store.remember({
        content: "erin's private capture",
        projectKey: '/a',
        origin: 'local_exec',
        sessionId: 's1',
        teamVisible: false,
      })
    ).memory;
    await kit.app.store.recordInjection({
      sessionId: 's1',
      event: 'session-start',
      source: 'startup',
      projectKey: '/a',
      memoryIds: [theirs.id],
      tokens: 10,
    });
    const timeline = await kit.get<Timeline>('/api/sessions/s1');
    expect(timeline.captures).toBe(0);
    expect(JSON.stringify(timeline)).not.toContain("erin's private capture");
    expect(JSON.stringify(timeline)).not.toContain(theirs.id);
    const injection = timeline.events.find((e) => e.type === 'injection');
    expect(injection?.type === 'injection' ? [injection.memories, injection.gone] : []).toEqual([
      [],
      0,
    ]);
  });

  it('refuses a session id that is blank or too long', async () => {
    const { kit } = await setup();
    expect((await kit.request(`/api/sessions/${'x'.repeat(257)}`)).status).toBe(400);
    expect((await kit.request('/api/sessions/%20')).status).toBe(400);
  });
});

/** Reads server-sent events from `response` until `until` holds for the events so far. */
async function readEvents(
  response: Response,
  until: (events: { event: string; data: string }[]) => boolean,
): Promise<{ event: string; data: string }[]> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  const events: { event: string; data: string }[] = [];
  try {
    while (!until(events)) {
      const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim() ?? '';
        events.push({ event: field('event'), data: field('data') });
        end = text.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel();
  }
  return events;
}

describe('web API: the live feed', () => {
  it("sends the newest captures oldest first, then each new one as it is stored, never another author's private one", async () => {
    const { kit, erin } = await setup();
    const first = (
      await kit.app.store.remember({ content: 'first capture', projectKey: '/a', origin: 'user' })
    ).memory;
    const second = (
      await kit.app.store.remember({ content: 'second capture', projectKey: '/a', origin: 'user' })
    ).memory;
    const response = await kit.request('/api/feed?project=/a');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const captures = (events: { event: string; data: string }[]) =>
      events
        .filter((e) => e.event === 'capture')
        .map((e) => (JSON.parse(e.data) as { id: string }).id);
    let later = '';
    const events = await readEvents(response, (so) => {
      if (later === '' && so.some((e) => e.event === 'ready')) {
        // Stored while the feed is open, by this reader and by another author (private).
        later = 'pending';
        void (async () => {
          await erin.store.remember({
            content: 'erin private',
            projectKey: '/a',
            origin: 'user',
            teamVisible: false,
          });
          later = (
            await kit.app.store.remember({
              content: 'third capture',
              projectKey: '/a',
              origin: 'user',
            })
          ).memory.id;
        })();
      }
      return later !== '' && later !== 'pending' && captures(so).includes(later);
    });
    expect(captures(events)).toEqual([first.id, second.id, later]);
    expect(events.map((e) => e.data).join('\n')).not.toContain('erin private');
    expect(FEED_POLL_MS).toBeGreaterThan(0);
  }, 20_000);

  it('is behind the token like every API route', async () => {
    const { kit } = await setup();
    expect((await kit.request('/api/feed', { headers: { authorization: null } })).status).toBe(401);
  });
});
