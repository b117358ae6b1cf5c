/**
 * The engine started by the hooks that find it down (issue #23): the built binary, real processes, a real
 * SQLite file. Sixteen hooks of one burst find no engine at once and start exactly one between them,
 * detached; with `MNEMO_ENGINE_AUTOSTART=0` none is started. Every capture of the burst is kept.
 */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { QUARANTINE_STATES } from '../../src/core/memory.js';
import { pingEngine, requestEngineDrain } from '../../src/engine/engine-client.js';
import { SPOOL_UNDRAINED_MS } from '../../src/hooks/post-tool-use.js';
import { listSpoolFiles } from '../../src/spool/spool-paths.js';
import { useEngines, waitFor } from '../helpers/engine-process.js';
import { hookFixture, runHookBin } from '../helpers/hook-fixtures.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { withStore } from '../helpers/test-app.js';

const newHome = useTestHomes();
const engines = useEngines();

function home(autoStart: '0' | '1'): TestHome {
  const t = newHome();
  Object.assign(t.env, { MNEMO_EMBEDDING_MODEL: 'hash', MNEMO_ENGINE_AUTOSTART: autoStart });
  engines.watch(t);
  return t;
}

/** An Edit of its own file per hook, so no two captures are duplicates. */
function edit(t: TestHome, i: number): Record<string, unknown> {
  const file = join(t.project, `src/module-${i}.ts`);
  const change = `export const retries${i} = ${i + 3};`;
  return hookFixture('post-tool-use-edit', {
    cwd: t.project,
    patch: {
      tool_input: { file_path: file, old_string: 'x', new_string: change, replace_all: false },
      tool_response: { filePath: file, oldString: 'x', newString: change, structuredPatch: [] },
    },
  });
}

function logLines(t: TestHome, text: string): number {
  const file = join(t.home, 'logs', 'mnemo.log');
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes(text)).length;
}

async function burst(t: TestHome, count: number): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => runHookBin(t, 'post-tool-use', edit(t, i))),
  );
  expect(results.map((r) => [r.code, r.stdout])).toEqual(results.map(() => [0, '']));
}

describe('engine autostart from hooks (built binary)', () => {
  it('starts exactly one engine when 16 hooks find it down at once, and keeps all 16 captures', async () => {
    const t = home('1');
    await burst(t, 16);
    expect(logLines(t, 'engine started in the background')).toBe(1);
    const ping = await waitFor('the started engine', () => pingEngine({ home: t.home }, 1000));
    expect(ping.home).toBe(t.home);
    // What a hook spooled while the others held the store, the engine drains.
    await requestEngineDrain({ home: t.home }, 10_000);
    const contents = await withStore(t.home, async (app) =>
      (await app.store.listMemories({ limit: 100, quarantine: QUARANTINE_STATES })).map(
        (m) => m.content,
      ),
    );
    for (let i = 0; i < 16; i += 1) {
      expect(contents.filter((c) => c.includes(`module-${i}.ts`))).toHaveLength(1);
    }
    expect(contents).toHaveLength(16);
  });

  it('starts none with MNEMO_ENGINE_AUTOSTART=0', async () => {
    const t = home('0');
    await burst(t, 4);
    expect(logLines(t, 'engine started')).toBe(0);
    expect(existsSync(join(t.home, 'engine.starting'))).toBe(false);
    expect(existsSync(join(t.home, 'engine.lock'))).toBe(false);
  });

  it('spools a capture that finds the engine down, and the engine it starts stores it', async () => {
    const t = home('1');
    await runHookBin(t, 'post-tool-use', edit(t, 1)).then((r) =>
      expect([r.code, r.stdout]).toEqual([0, '']),
    );
    // The hook opened no store: the capture waits in the spool for the engine it started.
    expect(logLines(t, '"trigger":"engine_down"')).toBe(1);
    expect(logLines(t, 'engine started in the background')).toBe(1);
    const stored = await waitFor('the started engine to drain the capture', async () => {
      const rows = await withStore(t.home, (app) => app.store.listMemories({ limit: 10 }));
      return rows.length > 0 ? rows : undefined;
    });
    expect(stored.map((m) => [m.origin, m.content.includes('module-1.ts')])).toEqual([
      ['local_edit', true],
    ]);
    expect(listSpoolFiles(join(t.home, 'spool'))).toEqual([]);
  });

  it('writes directly instead when the spool has waited undrained for too long', async () => {
    const t = home('1');
    // A spooled capture nobody drained: the engine was claimed as starting (so none starts) and
    // the file is older than the undrained limit.
    mkdirSync(t.home, { recursive: true, mode: 0o700 });
    writeFileSync(join(t.home, 'engine.starting'), String(Date.now()));
    await runHookBin(t, 'post-tool-use', edit(t, 1));
    const [waiting] = listSpoolFiles(join(t.home, 'spool'));
    expect(waiting).toBeDefined();
    const past = new Date(Date.now() - SPOOL_UNDRAINED_MS - 5000);
    utimesSync(join(t.home, 'spool', waiting ?? ''), past, past);
    await runHookBin(t, 'post-tool-use', edit(t, 2));
    const rows = await withStore(t.home, (app) => app.store.listMemories({ limit: 10 }));
    expect(rows.map((m) => m.content.includes('module-2.ts'))).toEqual([true]);
    expect(listSpoolFiles(join(t.home, 'spool'))).toEqual([waiting]);
  });
});
