/**
 * The native files of the SQLite driver and sqlite-vec, found directly (sqlite-native.ts): the same
 * files the packages' own resolution loads in this checkout, and nothing where that resolution could
 * pick another file (real directory layouts in a temporary folder).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../../test/helpers/temp-dir.js';
import { locateNativeFiles, nativeFiles } from './sqlite-native.js';

const tempDir = useTempDirs();
const require = createRequire(import.meta.url);

/** A package layout under `<root>/node_modules`; returns a module URL inside `<root>`. */
function layout(root: string, files: readonly string[]): string {
  for (const file of files) {
    const path = join(root, 'node_modules', file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.endsWith('package.json') ? '{"name":"x","version":"0.0.0"}' : '');
  }
  return pathToFileURL(join(root, 'dist', 'store', 'sqlite', 'x.js')).href;
}

const DRIVER = ['better-sqlite3/package.json', 'better-sqlite3/build/Release/better_sqlite3.node'];
const VEC = ['sqlite-vec/package.json', 'sqlite-vec-linux-x64/vec0.so'];

describe('locating the native files', () => {
  it('finds the files the packages themselves load in this checkout', () => {
    const found = nativeFiles();
    const sqliteVec = require('sqlite-vec') as { getLoadablePath(): string };
    expect(found.vec).toBe(sqliteVec.getLoadablePath());
    const root = dirname(require.resolve('better-sqlite3/package.json'));
    expect(found.driver).toBe(join(root, 'build', 'Release', 'better_sqlite3.node'));
    // `bindings`, as better-sqlite3 calls it, loads that very file.
    const bindings = require('bindings') as (options: object) => unknown;
    const addon = bindings({ bindings: 'better_sqlite3.node', module_root: root });
    expect(addon).toBe(require(found.driver!));
  });

  it('takes build/Release and the sibling platform package of a plain layout', () => {
    const root = tempDir('mnemo-native-');
    const found = locateNativeFiles(layout(root, [...DRIVER, ...VEC]), 'linux', 'x64');
    expect(found).toEqual({
      driver: join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
      vec: join(root, 'node_modules/sqlite-vec-linux-x64/vec0.so'),
    });
  });

  it('leaves the driver to `bindings` when it would load an earlier build (Debug, build/)', () => {
    for (const earlier of ['build/Debug/better_sqlite3.node', 'build/better_sqlite3.node']) {
      const root = tempDir('mnemo-native-');
      const from = layout(root, [...DRIVER, ...VEC, `better-sqlite3/${earlier}`]);
      expect(locateNativeFiles(from, 'linux', 'x64').driver).toBeUndefined();
    }
  });

  it('leaves sqlite-vec to its package when its file is not the plain sibling', () => {
    const root = tempDir('mnemo-native-');
    // A nested copy sqlite-vec would resolve first; another platform; no sqlite-vec at all.
    const nested = layout(root, [...DRIVER, ...VEC, 'sqlite-vec/node_modules/x/package.json']);
    expect(locateNativeFiles(nested, 'linux', 'x64').vec).toBeUndefined();
    const other = tempDir('mnemo-native-');
    expect(locateNativeFiles(layout(other, [...DRIVER, ...VEC]), 'darwin', 'arm64').vec).toBe(
      undefined,
    );
    const none = tempDir('mnemo-native-');
    const found = locateNativeFiles(layout(none, [...DRIVER, 'sqlite-vec-linux-x64/vec0.so']));
    expect(found.vec).toBeUndefined();
  });

  it('finds nothing, and lets both packages resolve themselves, without better-sqlite3', () => {
    const root = tempDir('mnemo-native-');
    expect(locateNativeFiles(layout(root, VEC), 'linux', 'x64')).toEqual({});
  });
});
