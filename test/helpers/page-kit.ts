/**
 * Test support for the project page's edge: a real app on a temporary home and a real git repository
 * as the project, with helpers that write memories through the real write path and channels.
 */
import { join } from 'node:path';

import { afterEach } from 'vitest';

import type { App } from '../../src/app/open-app.js';
import type { Memory, MemoryKind } from '../../src/core/memory.js';
import type { OriginEnvelope } from '../../src/core/origin/classify-origin.js';
import { PAGE_FILE_NAME } from '../../src/pages/page-file.js';
import type { PageTarget } from '../../src/pages/project-page.js';
import { resolveProjectKey } from '../../src/project/project-key.js';
import type { WriteDeps } from '../../src/write/write-memory.js';
import { writeMemory } from '../../src/write/write-memory.js';
import { useGitRepos } from './git-repo.js';
import { useTempDirs } from './temp-dir.js';
import { openWriteApp } from './write-kit.js';

export interface PageKit {
  app: App;
  deps: WriteDeps;
  dir: string;
  projectKey: string;
  target: PageTarget;
  /** Writes a memory through the write service on `envelope` (a person's CLI by default). */
  remember(
    content: string,
    options?: { kind?: MemoryKind; envelope?: OriginEnvelope; sourceUrl?: string },
  ): Promise<Memory>;
}

export function usePageKit(): (options?: { file?: string }) => Promise<PageKit> {
  const tempDir = useTempDirs();
  const repos = useGitRepos();
  const opened: App[] = [];
  afterEach(async () => {
    for (const app of opened.splice(0)) await app.close();
  });
  return async (options = {}) => {
    const repo = repos('project');
    repo.write('README.md', '# demo\n');
    repo.commit('initial');
    const { app, deps } = await openWriteApp(tempDir('mnemo-page-home-'));
    opened.push(app);
    const projectKey = resolveProjectKey(repo.dir);
    const target = {
      projectKey,
      root: repo.dir,
      path: join(repo.dir, options.file ?? PAGE_FILE_NAME),
    };
    return {
      app,
      deps,
      dir: repo.dir,
      projectKey,
      target,
      async remember(
        content,
        {
          kind = 'decision',
          envelope = { channel: 'cli' },
          sourceUrl,
        }: { kind?: MemoryKind; envelope?: OriginEnvelope; sourceUrl?: string } = {},
      ) {
        const outcome = await writeMemory(deps, {
          envelope,
          content,
          projectKey,
          kind,
          workingDir: repo.dir,
          ...(sourceUrl === undefined ? {} : { sourceUrl }),
        });
        if (outcome.decision !== 'store')
          throw new Error(`not stored: ${outcome.reason} ${outcome.notes.join('; ')}`);
        return outcome.memory;
      },
    };
  };
}
