import { afterEach, describe, expect, it } from 'vitest';

import { useGitRepos } from '../../test/helpers/git-repo.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { isMemoryError } from '../core/errors.js';
import type { Memory } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { writeMemory } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { dayEnd, dayStart, sourceFilter, stalePage } from './memory-filters.js';

const newRepo = useGitRepos();
const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('sourceFilter', () => {
  it('reads a page address as that page and anything else as a site', () => {
    expect(sourceFilter('https://Docs.Example.com/guide?x=1#top')).toEqual({
      sourceUrls: ['https://docs.example.com/guide'],
    });
    expect(sourceFilter('Docs.Example.com')).toEqual({ sourceDomains: ['docs.example.com'] });
  });

  it.each(['https://', 'not a site', '..'])('refuses %j naming the parameter', (source) => {
    const error = thrown(() => sourceFilter(source));
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    expect(String(error)).toContain('Bad parameter "source"');
  });
});

describe('dayStart and dayEnd', () => {
  it('take a whole day from its first to its last millisecond, and a full time as it is', () => {
    expect(dayStart('2026-06-15')).toBe('2026-06-15T00:00:00.000Z');
    expect(dayEnd('2026-06-15')).toBe('2026-06-15T23:59:59.999Z');
    expect(dayStart('2026-06-15T10:30:00Z')).toBe('2026-06-15T10:30:00.000Z');
    expect(dayEnd('2026-06-15T10:30:00Z')).toBe('2026-06-15T10:30:00.000Z');
  });
});

describe('stalePage', () => {
  async function seeded(): Promise<{
    app: TestApp;
    fresh: Memory;
    changed: Memory;
    gone: Memory;
    key: string;
  }> {
    const repo = newRepo();
    repo.write('src/db.ts', 'export function openPool() {}\n');
    repo.write('src/cache.ts', 'export const ttl = 60;\n');
    repo.write('src/old.ts', 'export const legacy = true;\n');
    repo.commit('initial');
    const app = await openTestApp(tempDir('mnemo-filters-home-'));
    apps.push(app);
    const key = resolveProjectKey(repo.dir);
    const put = async (content: string) => {
      const outcome = await writeMemory(writeDepsFrom(app), {
        envelope: { channel: 'cli' },
        content,
        projectKey: key,
        kind: 'decision',
        workingDir: repo.dir,
      });
      if (outcome.decision !== 'store') throw new Error(`not stored: ${outcome.reason}`);
      return outcome.memory;
    };
    const fresh = await put('Open connections with openPool() in src/db.ts.');
    const changed = await put('The cache TTL lives in src/cache.ts.');
    const gone = await put('Legacy flags are in src/old.ts.');
    repo.write('src/cache.ts', 'export const ttl = 120;\n');
    repo.commit('longer ttl');
    repo.remove('src/old.ts');
    return { app, fresh, changed, gone, key };
  }

  it('finds the memories whose cited files changed or went, or the fresh ones, checked in their project', async () => {
    const { app, fresh, changed, gone, key } = await seeded();
    const filter = { scope: { projectKey: key, includeGlobal: true } };
    const stale = await stalePage({ app }, filter, 'stale', { offset: 0, limit: 10 });
    expect(stale.items.map((row) => row.id).sort()).toEqual([changed.id, gone.id].sort());
    expect(Object.fromEntries(stale.items.map((row) => [row.id, row.staleness]))).toEqual({
      [changed.id]: 'stale',
      [gone.id]: 'gone',
    });
    expect(stale).toMatchObject({ total: 2, scanned: 3, truncated: false });
    const current = await stalePage({ app }, filter, 'fresh', { offset: 0, limit: 10 });
    expect(current.items.map((row) => [row.id, row.staleness])).toEqual([[fresh.id, 'fresh']]);
  });

  it('pages over the matches, counting all of them', async () => {
    const { app, key } = await seeded();
    const filter = { scope: { projectKey: key, includeGlobal: true } };
    const first = await stalePage({ app }, filter, 'stale', { offset: 0, limit: 1 });
    const second = await stalePage({ app }, filter, 'stale', { offset: 1, limit: 1 });
    expect([first.total, second.total]).toEqual([2, 2]);
    expect([...first.items, ...second.items].map((row) => row.id)).toHaveLength(2);
    expect(first.items[0]?.id).not.toBe(second.items[0]?.id);
  });

  it('leaves a memory whose project is not on this machine unchecked, so neither filter matches it', async () => {
    const app = await openTestApp(tempDir('mnemo-filters-home-'));
    apps.push(app);
    await app.store.remember({
      content: 'cites src/db.ts of a project elsewhere',
      projectKey: '/nowhere/on/this/machine',
      origin: 'user',
    });
    const filter = { scope: { projectKey: '/nowhere/on/this/machine', includeGlobal: false } };
    for (const wanted of ['stale', 'fresh'] as const) {
      const page = await stalePage({ app }, filter, wanted, { offset: 0, limit: 10 });
      expect(page).toMatchObject({ total: 0, items: [], scanned: 1 });
    }
  });
});
