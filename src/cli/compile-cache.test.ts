import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { enableCompileCache } from './compile-cache.js';

const tempDir = useTempDirs();

describe('enableCompileCache', () => {
  it('does nothing on a Node without module.enableCompileCache', () => {
    const home = join(tempDir(), 'home');
    expect(enableCompileCache({ MNEMO_HOME: home }, undefined)).toBeUndefined();
  });

  it('puts the cache in a private directory under the mnemo home', () => {
    const home = join(tempDir(), 'home');
    const enable = vi.fn(() => ({ status: 1 }));
    const dir = enableCompileCache({ MNEMO_HOME: home }, enable);
    expect(dir).toBe(join(home, 'cache', 'v8'));
    expect(enable).toHaveBeenCalledExactlyOnceWith(dir);
    expect(lstatSync(join(home, 'cache', 'v8')).mode & 0o777).toBe(0o700);
  });

  it('refuses a cache directory another account could write, and runs uncached', () => {
    const home = join(tempDir(), 'home');
    mkdirSync(join(home, 'cache', 'v8'), { recursive: true });
    chmodSync(join(home, 'cache'), 0o777);
    const enable = vi.fn(() => ({ status: 1 }));
    expect(enableCompileCache({ MNEMO_HOME: home }, enable)).toBeUndefined();
    expect(enable).not.toHaveBeenCalled();
  });

  it('never lets a cache problem reach the hook', () => {
    const home = join(tempDir(), 'home');
    const enable = vi.fn(() => {
      throw new Error('disk full');
    });
    expect(enableCompileCache({ MNEMO_HOME: home }, enable)).toBeUndefined();
  });
});
