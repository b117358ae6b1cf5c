import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach } from 'vitest';

/**
 * Returns a fresh, canonical (symlink-free) temporary directory that is removed after the current test.
 * Canonical because the OS temp dir is itself a symlink on some systems, and project keys are realpaths.
 */
export function useTempDirs(): (prefix?: string) => string {
  const made: string[] = [];
  afterEach(() => {
    // Retried: a process a killed engine started (its daily backup) may still be finishing a file there.
    for (const dir of made.splice(0)) {
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    }
  });
  return (prefix = 'mnemo-test-') => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    made.push(dir);
    return dir;
  };
}
