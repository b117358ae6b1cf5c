/**
 * The schema v5 re-key through the composition root: a v4-era store whose memories were keyed by a
 * checkout's path opens with them under the remote key the same checkout now resolves to.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { openRawSqlite } from '../../test/fixtures/sqlite/raw-sqlite.js';
import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { QUARANTINE_STATES } from '../core/memory.js';
import { resolveProjectKey } from '../project/project-key.js';
import { openApp } from './open-app.js';

const V4 = fileURLToPath(new URL('../../test/fixtures/sqlite/schema-v4.db', import.meta.url));
const ALPHA = '/home/dev/projects/alpha';
const tempDir = useTempDirs();
const every = { includeSuperseded: true, quarantine: QUARANTINE_STATES };

describe('openApp on a v4 store', () => {
  it('re-keys a real checkout through the composition root, so recall there still finds its memories', async () => {
    const root = tempDir();
    const repo = join(root, 'api');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/api.git'], { cwd: repo });
    const home = join(root, 'home');
    mkdirSync(home);
    // A v4 store whose memories were keyed by this checkout's path, as mnemo wrote them before v5.
    const path = join(home, 'mnemo.db');
    copyFileSync(V4, path);
    const raw = openRawSqlite(path);
    raw.prepare('UPDATE memories SET project_key = ? WHERE project_key = ?').run(repo, ALPHA);
    const moved = raw
      .prepare('SELECT count(*) FROM memories WHERE project_key = ?')
      .pluck()
      .get(repo) as number;
    raw.close();
    const app = await openApp({ env: { MNEMO_HOME: home } });
    try {
      const key = resolveProjectKey(repo);
      expect(key).toBe('git:github.com/acme/api');
      expect(
        await app.store.countMemories({
          ...every,
          scope: { projectKey: key, includeGlobal: false },
        }),
      ).toBe(moved);
      expect(
        await app.store.countMemories({
          ...every,
          scope: { projectKey: repo, includeGlobal: false },
        }),
      ).toBe(0);
    } finally {
      await app.close();
    }
  });
});
