import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { codeCacheDir, readCodeCache, writeCodeCache } from './code-cache.js';

const tempDir = useTempDirs();
const SOURCE = Buffer.from('exports.main = async () => 0;\n');
const DATA = Buffer.from('compiled code');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function cacheDir(): string {
  return codeCacheDir({ MNEMO_HOME: join(tempDir(), 'home') });
}

describe('the hook code cache', () => {
  it('lives in a private directory under the mnemo home and reads back what was written', () => {
    const home = join(tempDir(), 'home');
    const dir = codeCacheDir({ MNEMO_HOME: home });
    expect(dir).toBe(join(home, 'cache', 'v8'));
    expect(writeCodeCache(dir, 'post-tool-use', SOURCE, DATA)).toBe(true);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(home, 'cache')).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(dir, 'post-tool-use.v8cache')).mode & 0o777).toBe(0o600);
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toEqual(DATA);
  });

  it('keeps the bundle it was made from and refuses it for other bytes of the same length', () => {
    const dir = cacheDir();
    writeCodeCache(dir, 'post-tool-use', SOURCE, DATA);
    const other = Buffer.from(SOURCE.toString().replace('0', '1'));
    expect(other.length).toBe(SOURCE.length);
    expect(readCodeCache(dir, 'post-tool-use', other)).toBeUndefined();
    expect(readCodeCache(dir, 'session-start', SOURCE)).toBeUndefined();
  });

  it('refuses a cache written by another Node version or for another architecture', () => {
    const dir = cacheDir();
    writeCodeCache(dir, 'post-tool-use', SOURCE, DATA);
    const file = join(dir, 'post-tool-use.v8cache');
    const text = readFileSync(file, 'latin1');
    writeFileSync(file, text.replace(process.version, 'v0.0.1'), 'latin1');
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    writeFileSync(file, text.replace(` ${process.arch} `, ' other '), 'latin1');
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    writeFileSync(file, text, 'latin1');
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toEqual(DATA);
  });

  it('neither reads nor writes a cache in a directory another account could write', () => {
    const dir = cacheDir();
    writeCodeCache(dir, 'post-tool-use', SOURCE, DATA);
    chmodSync(dir, 0o770);
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    expect(writeCodeCache(dir, 'session-start', SOURCE, DATA)).toBe(false);
    chmodSync(dir, 0o700);
    chmodSync(join(dir, '..'), 0o777);
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    expect(writeCodeCache(dir, 'session-start', SOURCE, DATA)).toBe(false);
  });

  it('refuses a cache file that is a symbolic link or that others could write', () => {
    const dir = cacheDir();
    writeCodeCache(dir, 'post-tool-use', SOURCE, DATA);
    const file = join(dir, 'post-tool-use.v8cache');
    chmodSync(file, 0o620);
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    chmodSync(file, 0o600);
    symlinkSync(file, join(dir, 'session-start.v8cache'));
    expect(readCodeCache(dir, 'session-start', SOURCE)).toBeUndefined();
  });

  it.runIf(isRoot)('refuses a cache file owned by another account', () => {
    const dir = cacheDir();
    writeCodeCache(dir, 'post-tool-use', SOURCE, DATA);
    chownSync(join(dir, 'post-tool-use.v8cache'), 4321, 4321);
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
  });

  it('never throws: an unusable directory means no cache', () => {
    const root = tempDir();
    const blocked = join(root, 'file');
    writeFileSync(blocked, 'not a directory');
    const dir = join(blocked, 'v8');
    expect(readCodeCache(dir, 'post-tool-use', SOURCE)).toBeUndefined();
    expect(writeCodeCache(dir, 'post-tool-use', SOURCE, DATA)).toBe(false);
    mkdirSync(join(root, 'cache', 'v8'), { recursive: true, mode: 0o700 });
    chmodSync(join(root, 'cache'), 0o700);
    expect(writeCodeCache(join(root, 'cache', 'v8'), 'x', SOURCE, Buffer.alloc(0))).toBe(false);
  });
});
