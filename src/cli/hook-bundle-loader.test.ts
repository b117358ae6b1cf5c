import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { codeCacheDir } from './code-cache.js';
import { runHookBundle } from './hook-bundle-loader.js';

const tempDir = useTempDirs();

/** Bundles of the same length that record which of them ran. */
function bundle(tag: string, pad = ''): string {
  return `exports.main = async () => { globalThis.mnemoTestRuns.push('${tag}'); return 0; };${pad}\n`;
}

interface Runs {
  mnemoTestRuns: string[];
}
const runs = globalThis as unknown as Runs;
afterEach(() => {
  runs.mnemoTestRuns = [];
});

/**
 * A home and a bundle. Every run reads the bundle from a new directory, as a new hook process would
 * see it: V8 keeps compiled scripts in memory by name, and a second compile of the same file in this
 * process would never consult the cache on disk.
 */
function setup(initial: string) {
  runs.mnemoTestRuns = [];
  const root = tempDir();
  const home = join(root, 'home');
  const env = { MNEMO_HOME: home };
  let source = initial;
  let count = 0;
  const cacheFile = join(codeCacheDir(env), 'post-tool-use.v8cache');
  return {
    root,
    home,
    cacheFile,
    source: () => Buffer.from(source),
    change: (next: string) => {
      source = next;
    },
    run: (name = 'post-tool-use', bundle = source) => {
      count += 1;
      const bundleDir = join(root, `install-${count}`, 'hook-bundles');
      mkdirSync(bundleDir, { recursive: true });
      writeFileSync(join(bundleDir, `${name}.cjs`), bundle);
      return runHookBundle(name, { bundleDir, env });
    },
    log: () => {
      const file = join(home, 'logs', 'mnemo.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
  };
}

/**
 * What the loader would store for `source`: V8's code, checksum included, after a run, so the code of
 * `main` is in it too (V8 then runs that code for any source of the same length).
 */
async function compiledCode(source: string): Promise<Buffer> {
  v8.setFlagsFromString('--verify-snapshot-checksum');
  try {
    const script = new vm.Script(nodeModule.wrap(source), { filename: 'planted.cjs' });
    const module = { exports: {} as { main?: () => Promise<number> } };
    (script.runInThisContext() as (...args: unknown[]) => void)(
      module.exports,
      nodeModule.createRequire(import.meta.url),
      module,
    );
    await module.exports.main?.();
    return script.createCachedData();
  } finally {
    v8.setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

describe('runHookBundle', () => {
  it('runs the bundle, saves its compiled code, and uses it on the next run without rewriting it', async () => {
    const t = setup(bundle('A'));
    expect(await t.run()).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['A']);
    const first = statSync(t.cacheFile);
    expect(first.mode & 0o777).toBe(0o600);
    expect(await t.run()).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['A', 'A']);
    // Accepted by V8, so not written again (a rewrite is a rename: a new inode).
    expect(statSync(t.cacheFile).ino).toBe(first.ino);
    expect(t.log()).toBe('');
  });

  it('runs a changed bundle of the same length from its own source, and replaces the cache', async () => {
    const t = setup(bundle('A'));
    await t.run();
    const before = statSync(t.cacheFile).ino;
    t.change(bundle('B'));
    expect(await t.run()).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['A', 'B']);
    expect(statSync(t.cacheFile).ino).not.toBe(before);
    await t.run();
    expect(runs.mnemoTestRuns).toEqual(['A', 'B', 'B']);
  });

  it('runs uncached, without crashing, when the cached code is damaged, and writes a good cache', async () => {
    const t = setup(bundle('A'));
    await t.run();
    const bytes = readFileSync(t.cacheFile);
    // V8's own header (version, flags, source length) stays intact; only the code after it is damaged.
    const start = bytes.indexOf(t.source()) + t.source().length + 64;
    bytes.fill(0x5a, start);
    writeFileSync(t.cacheFile, bytes, { mode: 0o600 });
    expect(await t.run()).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['A', 'A']);
    expect(
      readFileSync(t.cacheFile)
        .subarray(start)
        .every((byte) => byte === 0x5a),
    ).toBe(false);
  });

  it('ignores code planted in a cache directory other accounts can write', async () => {
    const t = setup(bundle('B'));
    const dir = codeCacheDir({ MNEMO_HOME: t.home });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // B's bytes in the header and body, A's compiled code after them: V8 checks only the length.
    const source = t.source();
    const header = `mnemo-code-cache 1 ${process.version} ${process.arch} ${source.length}\n`;
    const planted = Buffer.concat([Buffer.from(header), source, await compiledCode(bundle('A'))]);
    runs.mnemoTestRuns = [];
    writeFileSync(t.cacheFile, planted, { mode: 0o600 });
    chmodSync(join(t.home, 'cache'), 0o777);
    expect(await t.run()).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['B']);
  });

  it('answers false, quietly, when there is no bundle or the name is not a hook name', async () => {
    const t = setup(bundle('A'));
    const bundleDir = join(t.root, 'empty');
    mkdirSync(bundleDir);
    const env = { MNEMO_HOME: t.home };
    expect(await runHookBundle('session-start', { bundleDir, env })).toBe(false);
    expect(await t.run('../hook-bundles/post-tool-use')).toBe(false);
    expect(await t.run('Post-Tool-Use')).toBe(false);
    expect(runs.mnemoTestRuns).toEqual([]);
    expect(t.log()).toBe('');
  });

  it('logs a bundle that fails to load and does not try it again in the same process', async () => {
    const t = setup(bundle('A'));
    // A name of its own: the "failed" mark is per process, shared with every copy of the loader.
    expect(await t.run('pre-compact', 'throw new Error("broken bundle");\n')).toBe(false);
    expect(t.log()).toMatch(
      /hook bundle failed to load; running the unbundled entry.*broken bundle/,
    );
    expect(await t.run('pre-compact', bundle('C'))).toBe(false);
    expect(runs.mnemoTestRuns).toEqual([]);
  });

  it('loads a chunk once, on its first require, through its own code cache, and leaves other requires to Node', async () => {
    const t = setup(bundle('A'));
    const bundleDir = join(t.root, 'chunked');
    mkdirSync(bundleDir);
    const main = [
      'exports.main = async () => {',
      "  const first = require('./store.open-store.chunk.cjs');",
      "  const again = require('./store.open-store.chunk.cjs');",
      "  globalThis.mnemoTestRuns.push(first === again ? first.tag() : 'two copies');",
      "  globalThis.mnemoTestRuns.push(typeof require('node:path').join);",
      '  return 0;',
      '};',
    ].join('\n');
    const chunk =
      "globalThis.mnemoTestRuns.push('chunk ran');\nexports.tag = () => 'from the chunk';\n";
    writeFileSync(join(bundleDir, 'post-tool-use.cjs'), main);
    writeFileSync(join(bundleDir, 'store.open-store.chunk.cjs'), chunk);
    const env = { MNEMO_HOME: t.home };
    expect(await runHookBundle('post-tool-use', { bundleDir, env })).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['chunk ran', 'from the chunk', 'function']);
    const chunkCache = join(codeCacheDir(env), 'store.open-store.chunk.v8cache');
    const first = statSync(chunkCache);
    expect(first.mode & 0o777).toBe(0o600);
    expect(readFileSync(chunkCache).includes(Buffer.from(chunk))).toBe(true);
    // A new install directory, as a new process sees it: the cache is used, not written again.
    const next = join(t.root, 'chunked-2');
    mkdirSync(next);
    writeFileSync(join(next, 'post-tool-use.cjs'), main);
    writeFileSync(join(next, 'store.open-store.chunk.cjs'), chunk);
    expect(await runHookBundle('post-tool-use', { bundleDir: next, env })).toBe(true);
    expect(statSync(chunkCache).ino).toBe(first.ino);
    expect(t.log()).toBe('');
  });

  it('logs a hook whose chunk is missing as failed, and still answers that the hook ran', async () => {
    const t = setup(bundle('A'));
    const main = "exports.main = async () => { require('./app.open-app.chunk.cjs'); return 0; };\n";
    expect(await t.run('session-end', main)).toBe(true);
    expect(t.log()).toMatch(/hook failed; exited 0 without output.*app\.open-app\.chunk\.cjs/);
  });

  it('runs without touching the home when the cache is off', async () => {
    const t = setup(bundle('A'));
    const bundleDir = join(t.root, 'plain');
    mkdirSync(bundleDir);
    writeFileSync(join(bundleDir, 'post-tool-use.cjs'), bundle('A'));
    const env = { MNEMO_HOME: t.home };
    expect(await runHookBundle('post-tool-use', { bundleDir, env, codeCache: false })).toBe(true);
    expect(runs.mnemoTestRuns).toEqual(['A']);
    expect(existsSync(t.home)).toBe(false);
  });
});
