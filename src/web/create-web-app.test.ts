import { afterEach, describe, expect, it } from 'vitest';

import { useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { ACTOR, openWebKit, type WebKit } from '../../test/helpers/web-kit.js';
import { anchorContent } from '../anchors/anchor-content.js';
import type { NewMemory } from '../core/memory.js';
import { HashEmbedder } from '../embed/hash-embedder.js';
import { ManualClock } from '../store/contract/fixtures.js';

const tempDir = useTempDirs();
const newRepo = useGitRepos();
const kits: WebKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0)) await kit.app.close();
});

async function setup(options: Parameters<typeof openWebKit>[1] = {}): Promise<WebKit> {
  const kit = await openWebKit(tempDir(), options);
  kits.push(kit);
  return kit;
}

interface Hit {
  memory: { id: string; snippet: string };
  ranks: Record<string, number>;
  factors?: Record<string, number>;
  contributions?: Record<string, number>;
  stale: boolean;
}

interface Detail {
  origin: Record<string, unknown>;
  gate: Record<string, unknown>;
  injection: { eligible: boolean; withheld: { reason: string }[] };
  history: { replaced: { id: string }[]; replacedBy: { id: string }[] };
  anchors: { status: string; label: string | null };
  audit: { action: string }[];
}

describe('web API: search', () => {
  it('runs hybrid recall in a project with every signal it reports, and records no access', async () => {
    const project = tempDir('mnemo-project-');
    const kit = await setup({ models: { embedder: new HashEmbedder(), reranker: undefined } });
    const { store } = kit.app;
    const pnpm = await store.remember({
      content: 'We use pnpm, not npm, to install packages in this repo.',
      projectKey: project,
      origin: 'user',
    });
    await store.remember({
      content: 'Deploys go through the blue green script.',
      projectKey: project,
    });
    await store.remember({ content: 'pnpm in another project', projectKey: '/elsewhere' });
    const body = await kit.get<{
      mode: string;
      legs: { name: string; ran: boolean }[];
      hits: Hit[];
    }>(
      `/api/search?q=${encodeURIComponent('which package manager, pnpm')}&project=${encodeURIComponent(project)}`,
    );
    expect(body.mode).toBe('hybrid');
    expect(body.legs.map((l) => [l.name, l.ran])).toEqual([
      ['lexical', true],
      ['vector', true],
      ['words', false],
      ['identifier', true],
      ['concept', false],
    ]);
    expect(body.hits[0]?.memory.id).toBe(pnpm.memory.id);
    expect(body.hits[0]?.ranks).toMatchObject({ lexical: 1 });
    expect(Object.keys(body.hits[0]?.factors ?? {}).sort()).toEqual(['heat', 'recency', 'trust']);
    expect(Object.keys(body.hits[0]?.contributions ?? {})).toContain('lexical');
    // Never another project's memory.
    expect(body.hits.map((h) => h.memory.snippet).join()).not.toContain('another project');
    // The search filled in the vectors it searched with, and touched no access counter.
    const after = await store.getMemory(pnpm.memory.id);
    expect(after).toMatchObject({ accessCount: 0, lastAccessedAt: null });
    expect(after?.embeddingModel).toBe(new HashEmbedder().model);
  });

  it('ranks by words only across all projects, and says so', async () => {
    const kit = await setup();
    await kit.app.store.remember({ content: 'Redis runs on port 6380 here', projectKey: '/a' });
    await kit.app.store.remember({ content: 'Redis is not used', projectKey: '/b' });
    const body = await kit.get<{ mode: string; project: null; hits: Hit[] }>('/api/search?q=redis');
    expect(body.mode).toBe('lexical');
    expect(body.hits).toHaveLength(2);
    expect(body.hits.map((h) => h.ranks['lexical'])).toEqual([1, 2]);
  });

  it('refuses an empty query and a bad parameter with 400 and the parameter named', async () => {
    const kit = await setup();
    const empty = await kit.request('/api/search?q=%20');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toContain('"q"');
    const limit = await kit.request('/api/search?q=x&limit=5000');
    expect(limit.status).toBe(400);
    expect(((await limit.json()) as { error: { message: string } }).error.message).toContain(
      '"limit"',
    );
    const unknown = await kit.request('/api/search?q=x&drop=1');
    expect(unknown.status).toBe(400);
  });
});

describe('web API: memories', () => {
  it('pages the list on the server with the total, newest first, filtered by project', async () => {
    const clock = new ManualClock();
    const kit = await setup({ clock });
    for (let i = 0; i < 7; i += 1) {
      await kit.app.store.remember({ content: `note number ${i}`, projectKey: '/a' });
      clock.advance(1000);
    }
    await kit.app.store.remember({ content: 'in b', projectKey: '/b' });
    const page = await kit.get<{ total: number; items: { snippet: string }[] }>(
      '/api/memories?project=%2Fa&limit=3&offset=3',
    );
    expect(page.total).toBe(7);
    expect(page.items.map((m) => m.snippet)).toEqual([
      'note number 3',
      'note number 2',
      'note number 1',
    ]);
    const all = await kit.get<{ total: number }>('/api/memories');
    expect(all.total).toBe(8);
    expect(await kit.get('/api/projects')).toMatchObject({
      projects: [
        { key: '/a', count: 7 },
        { key: '/b', count: 1 },
      ],
    });
  });

  it('explains one memory: origin chain, gate, injection, history both ways, anchors and audit', async () => {
    const repo = newRepo('acme');
    repo.write('src/pool.ts', 'export const POOL_SIZE = 10;\n');
    repo.write('src/gone.ts', 'export {};\n');
    repo.commit('initial');
    const kit = await setup();
    const { store } = kit.app;
    const remember = async (content: string, fields: Partial<NewMemory> = {}) => {
      const anchors = anchorContent(content, repo.dir, new Date());
      return (
        await store.remember(
          { content, projectKey: repo.dir, ...fields },
          anchors === undefined ? {} : { anchors },
        )
      ).memory;
    };
    const first = await remember('Pool size is 10 in src/pool.ts', {
      origin: 'network',
      originTool: 'WebFetch',
      sessionId: 'sess-1',
      quarantine: 'pending',
      redactions: 1,
      sourceUrl: 'https://docs.example.com/pool',
    });
    const gone = await remember('The helpers live in src/gone.ts', { origin: 'user' });
    // The file changes before the replacement is written, so the replacement describes it as it is.
    // (Committed first: git dates a commit to the second, so a commit made just after a memory could
    // fall in its second and a backfill would take it for the commit of the memory's time, or not.)
    repo.write('src/pool.ts', 'export const POOL_SIZE = 20;\n');
    repo.commit('pool: 20');
    const { current } = await store.supersede(first.id, {
      content: 'Pool size is 20 in src/pool.ts',
      projectKey: repo.dir,
      origin: 'user',
    });
    repo.remove('src/gone.ts');

    const detail = await kit.get<Detail>(`/api/memories/${first.id}`);
    expect(detail.origin).toEqual({
      class: 'network',
      meaning: 'captured from web or network tool output',
      trustBand: 'untrusted',
      tool: 'WebFetch',
      session: 'sess-1',
      tainted: false,
      sourceUrl: 'https://docs.example.com/pool',
    });
    expect(detail.gate).toMatchObject({ reason: 'novel', redactions: 1, quarantine: 'pending' });
    expect(detail.injection.eligible).toBe(false);
    expect(detail.injection.withheld.map((w) => w.reason)).toEqual(
      expect.arrayContaining(['origin_not_allowlisted', 'quarantine_pending', 'superseded']),
    );
    expect(detail.history.replacedBy.map((m) => m.id)).toEqual([current.id]);
    expect(detail.anchors).toMatchObject({
      status: 'stale',
      how: 'write',
      anchors: [{ path: 'src/pool.ts', kind: 'file', verdict: { state: 'changed' } }],
    });
    expect(detail.anchors.label).toContain('src/pool.ts');
    expect(detail.audit.map((e) => e.action)).toEqual(['remember', 'superseded']);
    // The replacement was written without anchors: viewing it anchors it (a backfill), fresh.
    const newer = await kit.get<Detail>(`/api/memories/${current.id}`);
    expect(newer.history.replaced.map((m) => m.id)).toEqual([first.id]);
    expect(newer.anchors).toMatchObject({ status: 'fresh', how: 'backfill' });
    // Every cited file deleted: gone, and withheld from injection with that reason.
    const deleted = await kit.get<Detail>(`/api/memories/${gone.id}`);
    expect(deleted.anchors.status).toBe('gone');
    expect(deleted.injection).toMatchObject({ eligible: false });
    expect(deleted.injection.withheld.map((w) => w.reason)).toEqual(['cited_files_deleted']);
  });

  it('redacts at read time a secret that reached the store raw (threat model R7)', async () => {
    const kit = await setup();
    // Straight to the store, past the write path's redaction: what a row of an older build could hold.
    const { memory } = await kit.app.store.remember({
      content: 'The key is ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI',
      projectKey: '/a',
    });
    const raw = await kit.request(`/api/memories/${memory.id}`);
    const text = await raw.text();
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[REDACTED:');
    const list = await (await kit.request('/api/memories')).text();
    expect(list).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('approves through the human-channel path, recording who and when', async () => {
    const kit = await setup();
    const { memory } = await kit.app.store.remember({
      content: 'held page',
      projectKey: '/a',
      origin: 'network',
      quarantine: 'pending',
    });
    const response = await kit.post(`/api/memories/${memory.id}/approve`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ changed: true, injectable: false });
    const entry = (await kit.app.store.auditTrail(memory.id)).at(-1);
    expect(entry).toMatchObject({
      action: 'quarantine',
      detail: { actor: ACTOR, from: 'pending', to: 'approved' },
    });
    expect((await kit.app.store.getMemory(memory.id))?.origin).toBe('network');
  });

  it('rejects by deleting, keeping the decision in the audit trail', async () => {
    const kit = await setup();
    const { memory } = await kit.app.store.remember({
      content: 'poisoned page',
      projectKey: '/a',
      origin: 'network',
      quarantine: 'pending',
    });
    expect((await kit.post(`/api/memories/${memory.id}/reject`)).status).toBe(200);
    expect(await kit.app.store.getMemory(memory.id)).toBeUndefined();
    const trail = await kit.app.store.auditTrail(memory.id);
    expect(trail.map((e) => e.action)).toEqual(['remember', 'quarantine', 'forget']);
    expect(trail[1]?.detail).toMatchObject({ actor: ACTOR, to: 'rejected' });
    expect((await kit.request(`/api/memories/${memory.id}`)).status).toBe(404);
  });

  it('maps errors to statuses with a message: 404, 400, 409, and no stack', async () => {
    const kit = await setup();
    const { memory } = await kit.app.store.remember({
      content: 'typed',
      projectKey: '/a',
      origin: 'user',
    });
    const missing = await kit.request('/api/memories/01JFX000000000000000000999');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await kit.request('/api/memories/nope')).status).toBe(400);
    const conflict = await kit.post(`/api/memories/${memory.id}/approve`);
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).not.toMatch(/at .*\.ts:\d+/);
    expect((await kit.request('/api/nothing-here')).status).toBe(404);
  });
});
