import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { type TestApp, withProjectApp } from '../../test/helpers/test-app.js';
import { isMemoryError } from '../core/errors.js';
import type { EngineSearch } from '../engine/engine-inject.js';
import type { EngineInjectArgs } from '../engine/engine-protocol.js';
import { retrieve } from '../retrieval/retrieve.js';
import { answerInjection } from './engine-injection.js';

const tempDir = useTempDirs();

const withProject = (work: (app: TestApp, project: string) => Promise<void>) =>
  withProjectApp(tempDir, work);

const INJECTION = { sessionStartTokens: 1500, promptTokens: 600, proactiveLocal: false };

function args(
  project: string,
  event: EngineInjectArgs['event'],
  extra: Partial<EngineInjectArgs> = {},
): EngineInjectArgs {
  const input =
    event === 'session-start'
      ? { hook_event_name: 'SessionStart', session_id: 's1', cwd: project, source: 'startup' }
      : {
          hook_event_name: 'UserPromptSubmit',
          session_id: 's1',
          cwd: project,
          prompt: 'why does the billing webhook retry twice',
        };
  return { event, input, injection: INJECTION, answerBy: Date.now() + 60_000, ...extra };
}

const searchOf =
  (app: TestApp): EngineSearch =>
  (request) =>
    retrieve({ store: app.store, clock: app.clock }, request);

async function seed(app: TestApp, project: string) {
  const user = await app.store.remember({
    content: 'The billing webhook retries twice because the queue acknowledges late.',
    projectKey: project,
    kind: 'decision',
    origin: 'user',
  });
  // An agent's own edit: injected only with proactiveLocal, which the hook's settings leave off.
  const local = await app.store.remember({
    content: 'Edited the billing webhook retry handler in src/billing/webhook.ts.',
    projectKey: project,
    kind: 'fix',
    origin: 'local_edit',
  });
  return { user: user.memory.id, local: local.memory.id };
}

describe('answerInjection (the engine answering an injecting hook)', () => {
  it('answers session start with the framed pack and one ledger row, under the settings the hook sent', async () => {
    await withProject(async (app, project) => {
      const ids = await seed(app, project);
      // The engine's own copy of the settings would inject the local edit; the hook's do not.
      const engineApp: TestApp = {
        ...app,
        config: { ...app.config, injection: { ...INJECTION, proactiveLocal: true } },
      };
      const answer = await answerInjection(
        args(project, 'session-start'),
        engineApp,
        searchOf(app),
      );
      expect('stdout' in answer && answer.stdout).toContain(`id=${ids.user}`);
      expect('stdout' in answer && answer.stdout).not.toContain(ids.local);
      const rows = await app.store.listInjections({ sessionId: 's1', limit: 10 });
      expect(rows.map((row) => row.event)).toEqual(['session-start']);
    });
  });

  it('answers late and records nothing once the hook has stopped waiting', async () => {
    await withProject(async (app, project) => {
      await seed(app, project);
      for (const event of ['session-start', 'user-prompt-submit'] as const) {
        const answer = await answerInjection(
          args(project, event, { answerBy: Date.now() - 1 }),
          app,
          searchOf(app),
        );
        expect(answer).toEqual({ late: true });
      }
      expect(await app.store.listInjections({ sessionId: 's1', limit: 10 })).toEqual([]);
    });
  });

  it('answers late, recording nothing, when the time runs out while the answer is being made', async () => {
    await withProject(async (app, project) => {
      await seed(app, project);
      const request = args(project, 'user-prompt-submit', { answerBy: Date.now() + 60_000 });
      // The search itself takes the hook's remaining time.
      const slowSearch: EngineSearch = async (query) => {
        request.answerBy = Date.now() - 1;
        return searchOf(app)(query);
      };
      expect(await answerInjection(request, app, slowSearch)).toEqual({ late: true });
      expect(await app.store.listInjections({ sessionId: 's1', limit: 10 })).toEqual([]);
    });
  });

  it("refuses a payload the hook's own schema refuses, naming paths and codes, never values", async () => {
    await withProject(async (app, project) => {
      const bad = args(project, 'user-prompt-submit');
      bad.input = { ...bad.input, session_id: 42, prompt: 'secret-prompt-text' };
      const error = await answerInjection(bad, app, searchOf(app)).catch((e: unknown) => e);
      expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
      expect(String(error)).toContain('session_id');
      expect(String(error)).not.toContain('secret-prompt-text');
    });
  });
});
