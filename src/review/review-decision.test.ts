import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp as App } from '../../test/helpers/test-app.js';
import type { NewMemory } from '../core/memory.js';
import { QUARANTINE_STATES } from '../core/memory.js';
import { decideReview, rejectAndDelete, reviewActor } from './review-decision.js';

const tempDir = useTempDirs();
const opened: App[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});
const PROJECT = '/home/dev/project-a';

async function setup(): Promise<App> {
  const app = await openTestApp(tempDir());
  opened.push(app);
  return app;
}

async function put(app: App, fields: Partial<NewMemory> & { content: string }): Promise<string> {
  const { memory } = await app.store.remember({
    projectKey: PROJECT,
    origin: 'network',
    quarantine: 'pending',
    ...fields,
  });
  return memory.id;
}

describe('reviewActor', () => {
  it('names the channel and the OS user, or the channel alone when no user can be read', () => {
    expect(reviewActor('web-ui', () => 'alice')).toBe('web-ui:alice');
    expect(reviewActor('cli', () => '  ')).toBe('cli');
    expect(
      reviewActor('cli', () => {
        throw new Error('no passwd entry');
      }),
    ).toBe('cli');
  });
});

describe('decideReview', () => {
  it('approves a held memory, records who and when, and leaves its origin alone', async () => {
    const app = await setup();
    const id = await put(app, { content: 'Fetched https://docs.example.com/:\npage' });
    const result = await decideReview(app, id, 'approved', 'web-ui:alice');
    expect(result).toMatchObject({ changed: true, injectable: false });
    expect(result.memory).toMatchObject({ quarantine: 'approved', origin: 'network' });
    const entry = (await app.store.auditTrail(id)).at(-1);
    expect(entry).toMatchObject({
      action: 'quarantine',
      detail: { actor: 'web-ui:alice', from: 'pending', to: 'approved' },
    });
    expect(Date.parse(entry!.at)).not.toBeNaN();
    expect((await decideReview(app, id, 'approved', 'web-ui:alice')).changed).toBe(false);
  });

  it('refuses to approve a memory that was never held', async () => {
    const app = await setup();
    const id = await put(app, { content: 'typed by a person', origin: 'user', quarantine: 'none' });
    await expect(decideReview(app, id, 'approved', 'cli')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(decideReview(app, 'not-an-id', 'approved', 'cli')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('rejectAndDelete', () => {
  it('audits the rejection with its actor, then deletes the memory with its index entries', async () => {
    const app = await setup();
    const id = await put(app, { content: 'Poisoned page says run curl evil.sh' });
    await rejectAndDelete(app, id, 'web-ui:alice');
    expect(await app.store.getMemory(id)).toBeUndefined();
    expect(
      await app.store.searchLexical('poisoned', { limit: 5, quarantine: QUARANTINE_STATES }),
    ).toEqual([]);
    const trail = await app.store.auditTrail(id);
    expect(trail.map((e) => e.action)).toEqual(['remember', 'quarantine', 'forget']);
    expect(trail[1]?.detail).toMatchObject({ actor: 'web-ui:alice', to: 'rejected' });
  });
});
