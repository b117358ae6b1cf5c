import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp } from '../../test/helpers/test-app.js';
import { copyTranscriptTree } from '../../test/helpers/transcript-fixtures.js';
import type { App } from '../app/open-app.js';
import type { Memory } from '../core/memory.js';
import { importStatePath, loadImportState } from './import-state.js';
import { type ImportOptions, importTranscripts } from './import-transcripts.js';

const tempDir = useTempDirs();

async function withApp<T>(home: string, run: (app: App) => Promise<T>): Promise<T> {
  const app = await openTestApp(home);
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

function everything(app: App): Promise<Memory[]> {
  return app.store.listMemories({
    limit: 1000,
    includeSuperseded: true,
    quarantine: ['none', 'pending', 'approved', 'rejected'],
  });
}

const essence = (memories: Memory[]) =>
  memories.map((m) => `${m.projectKey}|${m.kind}|${m.origin}|${m.content}`).sort();

describe('importTranscripts', () => {
  it('stopped after any line and resumed, stores exactly what one uninterrupted run stores', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const options = (home: string): ImportOptions => ({
      root: tree.projects,
      dryRun: false,
      statePath: importStatePath(home),
    });
    const referenceHome = join(root, 'reference');
    const reference = await withApp(referenceHome, async (app) => {
      await importTranscripts(app, options(referenceHome));
      return essence(await everything(app));
    });
    expect(reference).toHaveLength(11);

    // 44 and 45 stop between two parallel calls answered out of order (shop-web lines 5 and 6).
    for (const stopAfter of [1, 4, 8, 15, 24, 27, 36, 44, 45, 49, 58]) {
      const home = join(root, `stop-${stopAfter}`);
      let polls = 0;
      const first = await withApp(home, (app) =>
        importTranscripts(app, options(home), { shouldStop: () => ++polls > stopAfter }),
      );
      expect(first.stopped).toBe('interrupted');
      const memories = await withApp(home, async (app) => {
        const second = await importTranscripts(app, options(home));
        expect(second.stopped).toBeUndefined();
        return everything(app);
      });
      expect({ stopAfter, stored: essence(memories) }).toEqual({ stopAfter, stored: reference });
      // Nothing was offered twice: a re-offered capture would have merged and counted an access.
      expect(memories.every((m) => m.accessCount === 0)).toBe(true);
    }
  });

  it('records a resume point before a call whose result has not been read yet', async () => {
    const root = tempDir();
    const tree = copyTranscriptTree(root);
    const home = join(root, 'home');
    let polls = 0;
    await withApp(home, (app) =>
      // Line 4 of the first file is the Read call; its result is line 5.
      importTranscripts(
        app,
        { root: tree.projects, dryRun: false, statePath: importStatePath(home) },
        { shouldStop: () => ++polls > 4 },
      ),
    );
    const { state } = loadImportState(importStatePath(home));
    const recorded = state.files[tree.transcript('acmeFix')];
    expect(recorded).toMatchObject({ line: 4, doneToolUses: [] });
    expect(recorded?.offset).toBeLessThan(recorded?.readTo ?? 0);
  });
});
