import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { isMemoryError } from '../core/errors.js';
import { retrieve } from './retrieve.js';

const tempDir = useTempDirs();
let app: TestApp;

beforeEach(async () => {
  app = await openTestApp(tempDir());
});
afterEach(async () => {
  await app.close();
});

const here = { projectKey: '/p/here', includeGlobal: true };

async function seed(): Promise<Record<string, string>> {
  const put = async (content: string, projectKey: string, global = false) =>
    (
      await app.store.remember({
        content,
        projectKey,
        visibility: global ? 'global' : 'project',
      })
    ).memory.id;
  return {
    strong: await put('sqlite sqlite sqlite locking notes', '/p/here'),
    weak: await put('a note that mentions sqlite once among many other words here', '/p/here'),
    global: await put('sqlite is the default backend', '/p/elsewhere', true),
    foreign: await put('sqlite in another project', '/p/elsewhere'),
  };
}

describe('retrieve', () => {
  it('returns in-scope lexical hits best first with 1-based lexical ranks', async () => {
    const ids = await seed();
    const hits = await retrieve(app, { query: 'sqlite', scope: here, limit: 10 });
    expect(hits.map((h) => h.memory.id).sort()).toEqual([ids.strong, ids.weak, ids.global].sort());
    expect(hits[0]?.memory.id).toBe(ids.strong);
    expect(hits.map((h) => h.ranks.lexical)).toEqual([1, 2, 3]);
    const scores = hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('sees only global memories when no project resolves', async () => {
    const ids = await seed();
    const hits = await retrieve(app, {
      query: 'sqlite',
      scope: { projectKey: null, includeGlobal: true },
      limit: 10,
    });
    expect(hits.map((h) => h.memory.id)).toEqual([ids.global]);
  });

  it('stops at the limit and applies filters', async () => {
    await seed();
    expect(await retrieve(app, { query: 'sqlite', scope: here, limit: 1 })).toHaveLength(1);
    const none = await retrieve(app, {
      query: 'sqlite',
      scope: here,
      limit: 10,
      filters: { kinds: ['decision'] },
    });
    expect(none).toEqual([]);
  });

  it('leaves superseded memories out', async () => {
    const { memory } = await app.store.remember({ content: 'use npm test', projectKey: '/p/here' });
    await app.store.supersede(memory.id, { content: 'use pnpm test', projectKey: '/p/here' });
    const hits = await retrieve(app, { query: 'test', scope: here, limit: 10 });
    expect(hits.map((h) => h.memory.content)).toEqual(['use pnpm test']);
  });

  it('records no access unless asked', async () => {
    const ids = await seed();
    await retrieve(app, { query: 'sqlite', scope: here, limit: 10 });
    expect((await app.store.getMemory(ids.strong!))?.accessCount).toBe(0);
    await retrieve(app, { query: 'sqlite', scope: here, limit: 10, recordAccess: true });
    expect((await app.store.getMemory(ids.strong!))?.accessCount).toBe(1);
    expect((await app.store.getMemory(ids.foreign!))?.accessCount).toBe(0);
  });

  it('returns nothing for a query without searchable words', async () => {
    await seed();
    expect(await retrieve(app, { query: '"*" NEAR ()', scope: here, limit: 5 })).toEqual([]);
  });

  it.each([
    ['an empty query', { query: '  ', limit: 5 }, /The query is empty/],
    ['a zero limit', { query: 'x', limit: 0 }, /whole number from 1 to 1000/],
    ['a fractional limit', { query: 'x', limit: 1.5 }, /whole number from 1 to 1000/],
    ['a huge limit', { query: 'x', limit: 10_000 }, /whole number from 1 to 1000/],
  ])('refuses %s with INVALID_INPUT', async (_name, request, message) => {
    const error: unknown = await retrieve(app, { ...request, scope: here }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});
