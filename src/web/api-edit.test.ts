import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { ACTOR, openWebKit, type WebKit } from '../../test/helpers/web-kit.js';
import type { Memory } from '../core/memory.js';

const tempDir = useTempDirs();
const kits: WebKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0)) await kit.app.close();
});

async function setup(): Promise<{ kit: WebKit; memory: Memory }> {
  const kit = await openWebKit(tempDir());
  kits.push(kit);
  const { memory } = await kit.app.store.remember({
    content: 'the port is 8080',
    projectKey: '/a',
    origin: 'user',
  });
  return { kit, memory };
}

/** Every viewer edit action with a body that would change the memory. */
const ACTIONS: [string, Record<string, unknown>][] = [
  ['edit', { content: 'the port is 8081', tags: ['ops'] }],
  ['pin', { pinned: true }],
  ['supersede', { content: 'the port is 9090' }],
  ['forget', {}],
];

describe('web API: edit actions (user channel)', () => {
  it.each(ACTIONS)('%s is audited with the viewer actor', async (action, body) => {
    const { kit, memory } = await setup();
    const response = await kit.post(`/api/memories/${memory.id}/${action}`, body);
    expect(response.status, await response.clone().text()).toBe(200);
    const trail = await kit.app.store.auditTrail(memory.id);
    const last = trail.at(-1);
    if (action === 'supersede') {
      // The replacement is the person's own memory, written through the web channel.
      const { memory: replacement } = (await response.json()) as { memory: { id: string } };
      const stored = await kit.app.store.getMemory(replacement.id);
      expect(stored).toMatchObject({ origin: 'user', originTool: ACTOR, supersedes: memory.id });
      expect((await kit.app.store.getMemory(memory.id))?.supersededBy).toBe(replacement.id);
      return;
    }
    expect(last?.detail['actor']).toBe(ACTOR);
    expect(last?.action).toBe(action === 'forget' ? 'forget' : 'update');
  });

  const REFUSALS: [string, Record<string, string | null>, number][] = [
    ['no token', { authorization: null }, 401],
    ['no Origin', { origin: null }, 403],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 403],
    ['no CSRF token', { 'x-csrf-token': null }, 403],
    ['a wrong CSRF token', { 'x-csrf-token': 'guess' }, 403],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a rebound Host', { host: 'evil.example:7477' }, 403],
  ];

  it.each(REFUSALS)(
    'refuses every action with %s, changing nothing',
    async (_, headers, status) => {
      const { kit, memory } = await setup();
      for (const [action, body] of ACTIONS) {
        const response = await kit.request(`/api/memories/${memory.id}/${action}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        expect(response.status, `${action}`).toBe(status);
      }
      expect(await kit.app.store.getMemory(memory.id)).toEqual(memory);
      expect((await kit.app.store.auditTrail(memory.id)).map((e) => e.action)).toEqual([
        'remember',
      ]);
      expect(await kit.app.store.countMemories({})).toBe(1);
    },
  );

  it('refuses fields the viewer does not send (origin, quarantine, actor) as a bad request', async () => {
    const { kit, memory } = await setup();
    for (const extra of [{ origin: 'user' }, { quarantine: 'approved' }, { actor: 'cli:root' }]) {
      const response = await kit.post(`/api/memories/${memory.id}/edit`, {
        content: 'changed',
        ...extra,
      });
      expect(response.status).toBe(400);
    }
    expect(await kit.app.store.getMemory(memory.id)).toEqual(memory);
  });
});
