/**
 * What a hook process loads: the store and its native driver only when the event writes or reads there
 * itself. A skipped Read, a capture handed to the engine and an injection the engine answers never load
 * better-sqlite3 or sqlite-vec; on a SQLite home no hook ever loads the PostgreSQL driver. The built
 * binary, with a preload that records every `require` the hook bundle makes. The direct path's code is
 * in chunks of their own (scripts/bundle-hooks.mjs), loaded through the code cache: which chunks a hook
 * compiled shows in the cache directory, one file per script it ran.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { pingEngine } from '../../src/engine/engine-client.js';
import { clientPayload, runClientHookBin } from '../helpers/client-hook-fixtures.js';
import { useEngines } from '../helpers/engine-process.js';
import { expectQuietHook, hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();
const RECORDER = fileURLToPath(new URL('../helpers/record-requires.cjs', import.meta.url));

function recordingHome(): { t: TestHome; loaded: () => string[] } {
  const t = newHome();
  const file = join(t.project, '..', 'requires.txt');
  Object.assign(t.env, {
    MNEMO_EMBEDDING_MODEL: 'hash',
    NODE_OPTIONS: `--require ${RECORDER}`,
    MNEMO_TEST_REQUIRES_FILE: file,
  });
  return {
    t,
    loaded: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []),
  };
}

/** The scripts a hook process of this home compiled (bundles and chunks), from the code cache. */
function compiledScripts(t: TestHome): string[] {
  const dir = join(t.home, 'cache', 'v8');
  return existsSync(dir)
    ? readdirSync(dir)
        .map((name) => name.replace(/\.v8cache$/, ''))
        .sort()
    : [];
}

async function quietClientHook(
  t: TestHome,
  event: string,
  input: Record<string, unknown>,
): Promise<void> {
  expect(await runClientHookBin(t, 'gemini', event, input)).toEqual({
    code: 0,
    stdout: '',
    stderr: '',
  });
}

describe('hook process loading (built binary)', () => {
  it('opens no store and loads no SQLite driver for a skipped Read', async () => {
    const { t, loaded } = recordingHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-read', { cwd: t.project }),
    );
    expect(existsSync(t.dbPath)).toBe(false);
    expect(readdirSync(join(t.home, 'spool'))).toEqual(['capture.skipped.read_not_captured.tally']);
    expect(compiledScripts(t)).toEqual(['post-tool-use']);
    expect(loaded()).not.toContain('better-sqlite3');
    expect(loaded()).not.toContain('sqlite-vec');
    expect(loaded()).not.toContain('pg');
  });

  it('hands an Edit to the running engine without loading the SQLite driver', async () => {
    const { t, loaded } = recordingHome();
    await engines.start(t, ['--idle-exit', '0'], {
      NODE_OPTIONS: '',
      MNEMO_TEST_REQUIRES_FILE: '',
    });
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(loaded()).toContain('node:net');
    expect(loaded()).not.toContain('better-sqlite3');
    // Forwarded whole by the executable: the hook's bundle was never loaded, nor the loader that
    // would compile it (dist/cli/hook-bundle-loader.cjs, the only requirer of node:vm there).
    expect(compiledScripts(t)).toEqual([]);
    expect(loaded()).not.toContain('node:vm');
    const stored = await withStore(t.home, (app) => app.store.listMemories({ limit: 10 }));
    expect(stored.map((memory) => memory.origin)).toEqual(['local_edit']);
  });

  it('hands a Gemini CLI edit to the running engine, mapped in the executable, without the driver', async () => {
    const { t, loaded } = recordingHome();
    await engines.start(t, ['--idle-exit', '0'], {
      NODE_OPTIONS: '',
      MNEMO_TEST_REQUIRES_FILE: '',
    });
    await quietClientHook(t, 'AfterTool', clientPayload(t, 'gemini', 'AfterTool.replace'));
    expect(loaded()).toContain('node:net');
    expect(loaded()).toContain('file:mnemo.cjs');
    expect(loaded()).toContain('file:client-hook-plan.cjs');
    expect(loaded()).not.toContain('file:hook-bundle-loader.cjs');
    expect(loaded()).not.toContain('better-sqlite3');
    expect(compiledScripts(t)).toEqual([]);
    const stored = await withStore(t.home, (app) => app.store.listMemories({ limit: 10 }));
    expect(stored.map((memory) => [memory.origin, memory.sessionId])).toEqual([
      ['local_edit', 'gemini:c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f'],
    ]);
  });

  it('never reads the client mapping for a Claude Code hook', async () => {
    const { t, loaded } = recordingHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-read', { cwd: t.project }),
    );
    expect(loaded()).toContain('file:mnemo.cjs');
    expect(loaded()).not.toContain('file:client-hook-plan.cjs');
  });

  it('loads the driver when the event must write and no engine runs', async () => {
    const { t, loaded } = recordingHome();
    await expectQuietHook(
      t,
      'post-tool-use',
      hookFixture('post-tool-use-edit', { cwd: t.project }),
    );
    expect(loaded()).toContain('better-sqlite3');
    expect(loaded()).not.toContain('pg');
    expect(existsSync(t.dbPath)).toBe(true);
    // The direct path's chunk, and not the PostgreSQL adapter's.
    expect(compiledScripts(t)).toEqual(['post-tool-use', 'post-tool-use.direct.chunk']);
  });

  it('has the running engine answer session start and prompt recall without loading any driver', async () => {
    const { t, loaded } = recordingHome();
    mkdirSync(join(t.project, '.git'), { recursive: true });
    await withStore(t.home, (app) =>
      app.store.remember({
        content: 'GET /orders returns 500 after the migration: the orders index was dropped.',
        projectKey: t.project,
        kind: 'decision',
        origin: 'user',
      }),
    );
    await engines.start(t, ['--idle-exit', '0'], {
      NODE_OPTIONS: '',
      MNEMO_TEST_REQUIRES_FILE: '',
    });
    const start = await runHookBin(
      t,
      'session-start',
      hookFixture('session-start.startup', { cwd: t.project }),
    );
    expect(start).toMatchObject({ code: 0, stderr: '' });
    expect(start.stdout).toContain('orders index was dropped');
    const prompt = await runHookBin(
      t,
      'user-prompt-submit',
      hookFixture('user-prompt-submit', { cwd: t.project }),
    );
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    expect(loaded()).toContain('node:net');
    for (const driver of ['better-sqlite3', 'sqlite-vec', 'pg'])
      expect(loaded()).not.toContain(driver);
    // Both forwarded whole by the executable: neither bundle nor any chunk was loaded.
    expect(compiledScripts(t)).toEqual([]);
    const ping = await pingEngine({ home: t.home }, 5000);
    expect(ping?.injections).toBe(2);
  });
});

const BUNDLES = fileURLToPath(new URL('../../dist/hook-bundles/', import.meta.url));

/** The source modules a built bundle or chunk carries (esbuild heads each one with `// src/…`). */
function modulesOf(file: string): string[] {
  const text = readFileSync(join(BUNDLES, file), 'utf8');
  return [...new Set([...text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1] ?? ''))];
}

/** The chunks a bundle or chunk requires. */
function chunksOf(file: string): string[] {
  const text = readFileSync(join(BUNDLES, file), 'utf8');
  const required = [...text.matchAll(/require\("\.\/([a-z0-9.-]+\.chunk\.cjs)"\)/g)];
  return [...new Set(required.map((match) => match[1] ?? ''))];
}

describe('hook bundles (built)', () => {
  // What only the direct path needs: opening the store, its adapters, the write path, recall and rendering.
  const directOnly = [
    /^src\/app\//,
    /^src\/store\/(sqlite|postgres)\//,
    /^src\/store\/lexical-rules\.ts$/,
    /^src\/write\/(write-memory|fragment-cluster|write-anchors)\.ts$/,
    /^src\/core\/(ranking|render|injection)\//,
    /^src\/retrieval\//,
  ];

  it.each(['post-tool-use', 'post-tool-use-failure', 'session-start', 'user-prompt-submit'])(
    'keeps the direct path of %s out of its bundle, in chunks it requires only there',
    (event) => {
      const modules = modulesOf(`${event}.cjs`);
      expect(modules).toContain(`src/hooks/entry/${event}.ts`);
      expect(modules.filter((module) => directOnly.some((rule) => rule.test(module)))).toEqual([]);
      expect(chunksOf(`${event}.cjs`)).toEqual([`${event}.direct.chunk.cjs`]);
    },
  );

  it.each(['post-tool-use', 'session-start', 'user-prompt-submit'])(
    'keeps the PostgreSQL adapter out of the direct chunk of %s, in a chunk of its own',
    (event) => {
      const direct = `${event}.direct.chunk.cjs`;
      expect(modulesOf(direct)).toContain('src/store/sqlite/open-sqlite-store.ts');
      expect(modulesOf(direct).filter((m) => m.startsWith('src/store/postgres/'))).toEqual([]);
      expect(chunksOf(direct)).toEqual(['store.postgres.open-postgres-store.chunk.cjs']);
      expect(modulesOf('store.postgres.open-postgres-store.chunk.cjs')).toContain(
        'src/store/postgres/open-postgres-store.ts',
      );
    },
  );

  it('gives each injecting hook its own handler only', () => {
    expect(modulesOf('session-start.direct.chunk.cjs')).not.toContain(
      'src/hooks/user-prompt-submit.ts',
    );
    expect(modulesOf('user-prompt-submit.direct.chunk.cjs')).not.toContain(
      'src/hooks/session-start.ts',
    );
  });

  it('gives the direct prompt recall the same ranking code the CLI runs, in its handler chunk', () => {
    const modules = modulesOf('user-prompt-submit.direct.chunk.cjs');
    for (const module of ['src/retrieval/retrieve.ts', 'src/core/ranking/bm25f.ts'])
      expect(modules).toContain(module);
  });
});
