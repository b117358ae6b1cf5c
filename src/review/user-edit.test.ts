import { existsSync, readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp as App } from '../../test/helpers/test-app.js';
import { isMemoryError } from '../core/errors.js';
import type { Memory, NewMemory } from '../core/memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { editInPlace, forgetAsUser, replaceWith, setPinned } from './user-edit.js';

const tempDir = useTempDirs();
const opened: App[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});
const PROJECT = '/home/dev/project-a';
const ACTOR = 'web-ui:alice';
const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

async function setup(): Promise<App> {
  const app = await openTestApp(tempDir());
  opened.push(app);
  return app;
}

async function put(app: App, fields: Partial<NewMemory> & { content: string }): Promise<Memory> {
  const { memory } = await app.store.remember({ projectKey: PROJECT, origin: 'user', ...fields });
  return memory;
}

async function entries(app: App, id: string, action: string): Promise<Record<string, unknown>[]> {
  return (await app.store.auditTrail(id)).filter((e) => e.action === action).map((e) => e.detail);
}

function storeBytes(app: App): string {
  const path = app.config.databasePath;
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('editInPlace', () => {
  it('redacts a secret before it is stored, keeps the origin, and audits the change with the actor', async () => {
    const app = await setup();
    const memory = await put(app, {
      content: 'fetched setup notes',
      origin: 'network',
      quarantine: 'pending',
    });
    const { memory: edited, redactions } = await editInPlace(
      app,
      memory,
      { content: `  use the token ${SECRET} in CI  `, tags: ['ci'], kind: 'fact' },
      ACTOR,
    );
    expect(redactions).toBe(1);
    expect(edited).toMatchObject({
      content: 'use the token [REDACTED:github_token] in CI',
      tags: ['ci'],
      kind: 'fact',
      origin: 'network',
      quarantine: 'pending',
    });
    expect(await entries(app, memory.id, 'update')).toEqual([
      expect.objectContaining({ fields: ['content', 'kind', 'tags'], actor: ACTOR }),
    ]);
    expect(storeBytes(app)).not.toContain(SECRET);
  });

  it('refuses text that is blank, changing nothing', async () => {
    const app = await setup();
    const memory = await put(app, { content: 'keep me' });
    const error = await refusal(editInPlace(app, memory, { content: ' \n\t ' }, ACTOR));
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    expect((await app.store.getMemory(memory.id))?.content).toBe('keep me');
    expect(await entries(app, memory.id, 'update')).toEqual([]);
  });

  it('writes no content change for the same text, only the other fields', async () => {
    const app = await setup();
    const memory = await put(app, { content: 'same text' });
    await editInPlace(app, memory, { content: 'same text', tags: ['x'] }, ACTOR);
    expect(await entries(app, memory.id, 'update')).toEqual([
      expect.objectContaining({ fields: ['tags'], actor: ACTOR }),
    ]);
  });
});

describe('setPinned', () => {
  it('pins an injectable memory and unpins it, each audited with the actor', async () => {
    const app = await setup();
    const memory = await put(app, { content: 'never push to main' });
    const pinned = await setPinned(app, memory, true, ACTOR);
    expect(pinned.pinned).toBe(true);
    expect(await setPinned(app, pinned, true, ACTOR)).toBe(pinned);
    expect((await setPinned(app, pinned, false, ACTOR)).pinned).toBe(false);
    expect(await entries(app, memory.id, 'update')).toEqual([
      expect.objectContaining({ fields: ['pinned'], actor: ACTOR }),
      expect.objectContaining({ fields: ['pinned'], actor: ACTOR }),
    ]);
  });

  it('refuses to pin what could not be injected, saying why and what to do instead', async () => {
    const app = await setup();
    const memory = await put(app, {
      content: 'a web page said so',
      origin: 'network',
      quarantine: 'approved',
    });
    const error = await refusal(setPinned(app, memory, true, ACTOR));
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    expect(String(error)).toContain('not on the allowlist for proactive injection');
    expect(String(error)).toContain('Supersede');
    expect((await app.store.getMemory(memory.id))?.pinned).toBe(false);
  });
});

describe('replaceWith', () => {
  it("writes the person's text as their own memory through the write service and keeps the old one in history", async () => {
    const app = await setup();
    const old = await put(app, {
      content: 'use npm test',
      origin: 'network',
      quarantine: 'pending',
      tags: ['build'],
    });
    const outcome = await replaceWith(
      writeDepsFrom(app),
      old,
      `use pnpm test ${SECRET}`,
      ACTOR,
      null,
    );
    if (outcome.decision === 'reject') throw new Error(`refused: ${outcome.reason}`);
    expect(outcome.memory).toMatchObject({
      content: 'use pnpm test [REDACTED:github_token]',
      origin: 'user',
      originTool: ACTOR,
      tags: ['build'],
      supersedes: old.id,
    });
    expect((await app.store.getMemory(old.id))?.supersededBy).toBe(outcome.memory.id);
    expect(storeBytes(app)).not.toContain(SECRET);
    const error = await refusal(
      replaceWith(
        writeDepsFrom(app),
        { ...old, supersededBy: outcome.memory.id },
        'again',
        ACTOR,
        null,
      ),
    );
    expect(isMemoryError(error, 'CONFLICT')).toBe(true);
  });
});

describe('forgetAsUser', () => {
  it('deletes the memory with an audit entry naming the actor, and says when it was already gone', async () => {
    const app = await setup();
    const memory = await put(app, { content: 'obsolete note' });
    await forgetAsUser(app, memory, ACTOR);
    expect(await app.store.getMemory(memory.id)).toBeUndefined();
    expect(await entries(app, memory.id, 'forget')).toEqual([
      expect.objectContaining({ actor: ACTOR }),
    ]);
    const error = await refusal(forgetAsUser(app, memory, ACTOR));
    expect(isMemoryError(error, 'NOT_FOUND')).toBe(true);
  });
});
