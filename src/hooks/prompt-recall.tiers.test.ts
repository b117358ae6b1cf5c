/**
 * Prompt recall's two tiers through the hook's own path (real store, gate, renderer and ledger): a
 * confident memory in full, a borderline one as an index entry of its first words, and nothing below
 * the floor. The search is recall itself with the calibrated relevance of each hit set, so the test
 * holds the placement to the tier thresholds whatever the fitted model says of these texts.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { INDEX_FLAG, INDEX_TITLE } from '../core/injection/prompt-recall.js';
import { RELEVANCE_TIERS } from '../core/ranking/relevance.js';
import { resolveProjectKey } from '../project/project-key.js';
import { retrieve } from '../retrieval/retrieve.js';
import { recallForPrompt } from './prompt-recall.js';

const tempDir = useTempDirs();
const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('prompt recall tiers', () => {
  it('injects a confident memory in full and a borderline one as an index entry, and records both', async () => {
    const dir = tempDir('mnemo-tiers-');
    const app = await openTestApp(tempDir('mnemo-tiers-home-'));
    apps.push(app);
    const projectKey = resolveProjectKey(dir);
    const put = async (content: string) =>
      (await app.store.remember({ content, projectKey, origin: 'user', kind: 'decision' })).memory;
    const confident = await put(
      'The orders service keeps its connection pool in src/db.ts, 10 clients.',
    );
    const borderline = await put(
      'Orders pagination uses keyset cursors on (created_at, id) because offset pages drifted under concurrent inserts last spring.',
    );
    const below = await put('Orders CSV export runs nightly at 02:00 UTC.');
    const { full, index } = RELEVANCE_TIERS.lexical;
    const relevanceOf = new Map([
      [confident.id, full],
      [borderline.id, (full + index) / 2],
      [below.id, index / 2],
    ]);
    const result = await recallForPrompt(
      { session_id: 's-tiers', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'orders' },
      app,
      {
        search: async (request) =>
          (await retrieve({ store: app.store, clock: app.clock }, request)).map((hit) => ({
            ...hit,
            relevance: relevanceOf.get(hit.memory.id) ?? 0,
          })),
      },
    );
    const context = (
      JSON.parse(result.stdout ?? '{}') as { hookSpecificOutput: { additionalContext: string } }
    ).hookSpecificOutput.additionalContext;
    expect(context.split('\n')[1]).toContain(INDEX_TITLE);
    expect(context).toContain(`> ${confident.content}`);
    expect(context).toMatch(
      new RegExp(`id=${borderline.id} · decision · origin=user · [^\\n]*${INDEX_FLAG}`),
    );
    expect(context).toContain(
      '> Orders pagination uses keyset cursors on (created_at, id) because offset pages drifted …',
    );
    expect(context).not.toContain(borderline.content);
    expect(context).not.toContain(below.id);
    expect(context.indexOf(confident.id)).toBeLessThan(context.indexOf(borderline.id));
    const [row] = await app.store.listInjections({ limit: 1 });
    expect(row?.memoryIds.sort()).toEqual([confident.id, borderline.id].sort());
    expect(row?.indexIds).toEqual([borderline.id]);
    expect(await app.store.injectedIds('s-tiers')).toEqual([confident.id]);
    expect(await app.store.indexedIds('s-tiers')).toEqual([borderline.id]);
  });

  it('brings a memory first shown as an index entry in full once a prompt is confident of it, and never points at it twice', async () => {
    const dir = tempDir('mnemo-tiers-');
    const app = await openTestApp(tempDir('mnemo-tiers-home-'));
    apps.push(app);
    const memory = (
      await app.store.remember({
        content:
          'Orders pagination uses keyset cursors on (created_at, id) because offset pages drifted under concurrent inserts last spring.',
        projectKey: resolveProjectKey(dir),
        origin: 'user',
        kind: 'decision',
      })
    ).memory;
    const { full, index } = RELEVANCE_TIERS.lexical;
    const ask = (relevance: number) =>
      recallForPrompt(
        { session_id: 's-later', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'orders' },
        app,
        {
          search: async (request) =>
            (await retrieve({ store: app.store, clock: app.clock }, request)).map((hit) => ({
              ...hit,
              relevance,
            })),
        },
      );
    const contextOf = (result: { stdout?: string }) =>
      (JSON.parse(result.stdout ?? '{}') as { hookSpecificOutput?: { additionalContext: string } })
        .hookSpecificOutput?.additionalContext ?? '';
    const borderline = (full + index) / 2;

    const pointed = contextOf(await ask(borderline));
    expect(pointed).toContain(INDEX_FLAG);
    expect(pointed).not.toContain(memory.content);
    // The same borderline evidence again: the session already has the pointer, so nothing is added.
    expect(await ask(borderline)).toEqual({});
    // Confident now: the full text comes, though the session saw the memory's index entry before.
    const read = contextOf(await ask(full));
    expect(read).toContain(`> ${memory.content}`);
    expect(read.split('\n')[1]).not.toContain(INDEX_TITLE);
    expect(await app.store.injectedIds('s-later')).toEqual([memory.id]);
    expect(await app.store.indexedIds('s-later')).toEqual([]);
    // And once read in full, never again in this session, as either tier.
    expect(await ask(full)).toEqual({});
    expect(await ask(borderline)).toEqual({});
    const rows = await app.store.listInjections({ sessionId: 's-later', limit: 10 });
    expect(rows.map((r) => [r.memoryIds, r.indexIds]).reverse()).toEqual([
      [[memory.id], [memory.id]],
      [[memory.id], []],
    ]);
  });

  it('injects nothing and records nothing when no hit reaches the index tier', async () => {
    const dir = tempDir('mnemo-tiers-');
    const app = await openTestApp(tempDir('mnemo-tiers-home-'));
    apps.push(app);
    await app.store.remember({
      content: 'Orders CSV export runs nightly at 02:00 UTC.',
      projectKey: resolveProjectKey(dir),
      origin: 'user',
    });
    const result = await recallForPrompt(
      {
        session_id: 's-none',
        cwd: dir,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'orders export',
      },
      app,
      {
        search: async (request) =>
          (await retrieve({ store: app.store, clock: app.clock }, request)).map((hit) => ({
            ...hit,
            relevance: RELEVANCE_TIERS.lexical.index / 2,
          })),
      },
    );
    expect(result).toEqual({});
    expect(await app.store.listInjections({ limit: 1 })).toEqual([]);
  });
});
