import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openApp } from '../app/open-app.js';
import { loadConfig } from '../config/config.js';
import { silentLogger } from '../log/log.js';
import type { SqliteMemoryStore } from '../store/sqlite/sqlite-store.js';
import { openEngineApp } from './run-engine.js';

const tempDir = useTempDirs();

describe('the resident vector mirror per process', () => {
  it('is held by the engine and loaded in the background', async () => {
    const config = loadConfig({ env: { MNEMO_HOME: tempDir() } });
    const app = await openEngineApp(config, silentLogger);
    try {
      const mirror = (app.store as SqliteMemoryStore).vectorMirror;
      expect(mirror).toBeDefined();
      await mirror!.settled();
      expect(mirror!.status().state).toBe('ready');
    } finally {
      await app.close();
    }
  });

  it('is not loaded by a one-shot command or a hook (openApp without the option)', async () => {
    const app = await openApp({ env: { MNEMO_HOME: tempDir() } });
    try {
      expect((app.store as SqliteMemoryStore).vectorMirror).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
