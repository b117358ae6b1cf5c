/**
 * The viewer on a team store: the same API over PostgreSQL (MNEMO_DATABASE_URL), read as the author this
 * process writes as. Another author's private memories are absent from every read — listings, counts,
 * groups, search across projects, the dashboard — and opening, approving or purging one by id or by group
 * is refused or leaves it alone (threat model R4).
 */
import { afterAll, expect, it } from 'vitest';

import { describeWithPostgres, freshSchema } from '../../test/helpers/postgres-test-db.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp } from '../../test/helpers/test-app.js';
import { openWebKit, type WebKit } from '../../test/helpers/web-kit.js';
import type { NewMemory } from '../core/memory.js';
import { QUARANTINE_STATES } from '../core/memory.js';
import type { MemoryStore } from '../store/store.js';

const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

const PAGE = (path: string): Partial<NewMemory> => ({
  projectKey: '/repo',
  origin: 'network',
  originTool: 'WebFetch',
  sessionId: 's1',
  sourceUrl: `https://evil.example${path}`,
});

describeWithPostgres('web API on PostgreSQL', (server) => {
  async function teamStore(): Promise<{
    kit: WebKit;
    dana: MemoryStore;
    ids: Record<string, string>;
  }> {
    const url = await server.url({ schema: freshSchema('web') });
    const kit = await openWebKit(tempDir(), {
      env: { MNEMO_DATABASE_URL: url, MNEMO_AUTHOR: 'erin', MNEMO_EMBEDDING_MODEL: 'hash' },
    });
    closers.push(() => kit.app.close());
    const danaApp = await openTestApp(tempDir(), {
      env: { MNEMO_DATABASE_URL: url, MNEMO_AUTHOR: 'dana', MNEMO_EMBEDDING_MODEL: 'hash' },
    });
    closers.push(() => danaApp.close());
    const dana = danaApp.store;
    const put = async (store: MemoryStore, name: string, fields: Partial<NewMemory>) =>
      [
        name,
        (await store.remember({ content: `quota page ${name}`, projectKey: '/repo', ...fields }))
          .memory.id,
      ] as const;
    const ids = Object.fromEntries([
      await put(kit.app.store, 'erinPage', PAGE('/erin')),
      await put(dana, 'danaPage', PAGE('/dana')),
      await put(dana, 'danaShared', { origin: 'user', teamVisible: true }),
      await put(dana, 'danaPrivate', { origin: 'user', teamVisible: false }),
    ]) as Record<string, string>;
    return { kit, dana, ids };
  }

  it('serves the viewer from MNEMO_DATABASE_URL and shows an author only what that author may see', async () => {
    const { kit, ids } = await teamStore();
    expect(kit.app.store.description.backend).toBe('postgres');
    const ofList = (items: { id: string }[]) => items.map((m) => m.id).sort();
    const all = await kit.get<{ total: number; items: { id: string }[] }>(
      '/api/memories?state=all',
    );
    expect(ofList(all.items)).toEqual([ids['erinPage'], ids['danaShared']].sort());
    expect(all.total).toBe(2);
    const inRepo = await kit.get<{ items: { id: string }[] }>(
      '/api/memories?state=all&project=/repo',
    );
    expect(ofList(inRepo.items)).toEqual(ofList(all.items));
    const inbox = await kit.get<{ total: number; items: { id: string }[] }>('/api/review');
    expect(ofList(inbox.items)).toEqual([ids['erinPage']]);
    const groups = await kit.get<{ groups: unknown[] }>('/api/review/groups?by=domain');
    expect(groups.groups).toEqual([{ key: 'evil.example', count: 1 }]);
    const search = await kit.get<{ hits: { memory: { id: string } }[] }>('/api/search?q=quota');
    expect(ofList(search.hits.map((h) => h.memory))).toEqual(ofList(all.items));
    const dashboard = await kit.get<{ totals: { memories: number; pending: number } }>(
      '/api/dashboard',
    );
    expect(dashboard.totals).toEqual({ memories: 2, pending: 1 });
    const projects = await kit.get<{ projects: unknown[] }>('/api/projects');
    expect(projects.projects).toEqual([{ key: '/repo', count: 2 }]);
    const detail = await kit.get<{ memory: { sourceUrl: string | null } }>(
      `/api/memories/${ids['erinPage']}`,
    );
    expect(detail.memory.sourceUrl).toBe('https://evil.example/erin');
    // Another author's private memory, even by id, is as absent as an unknown one.
    for (const id of [ids['danaPrivate'], ids['danaPage']]) {
      expect((await kit.request(`/api/memories/${id}`)).status).toBe(404);
      expect((await kit.post(`/api/memories/${id}/approve`)).status).toBe(404);
      expect((await kit.post(`/api/memories/${id}/reject`)).status).toBe(404);
    }
  });

  it("purges a site for its own author only, leaving another author's captures of it", async () => {
    const { kit, dana, ids } = await teamStore();
    const response = await kit.post('/api/review/bulk', {
      action: 'purge',
      by: 'domain',
      key: 'evil.example',
    });
    expect(await response.json()).toMatchObject({ changed: 1, unchanged: 0, remaining: 0 });
    const left = await dana.listMemories({ limit: 20, quarantine: QUARANTINE_STATES });
    expect(left.map((m) => m.id).sort()).toEqual(
      [ids['danaPage'], ids['danaShared'], ids['danaPrivate']].sort(),
    );
    expect((await dana.getMemory(ids['danaPage']!))?.quarantine).toBe('pending');
  });
});
