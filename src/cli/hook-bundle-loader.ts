/**
 * Runs a hook from its bundle (`dist/hook-bundles/<name>.cjs`, one CommonJS file per hook, built by
 * scripts/bundle-hooks.mjs) with V8's code cache (code-cache.ts): the bundle is compiled through
 * `vm.Script` with the cached code of an earlier run, and after the first run, or when V8 rejects the
 * cache (another Node), the compiled code is saved for the next hook. The chunks a bundle requires
 * (`./<name>.chunk.cjs`: its direct path, the PostgreSQL adapter) are compiled the same way, each with
 * its own cache file, when the hook first reaches them.
 *
 * V8 checks a code cache's version, flags and source length, but in release builds not its contents:
 * corrupt cached code crashes the process. The cache is therefore written and read with V8's checksum
 * on (`--verify-snapshot-checksum`, only around our own compile and serialise), so a damaged file is
 * rejected like a stale one and the hook compiles from source.
 *
 * Used by the executable (cli/bin.ts, bundled into dist/cli/mnemo.cjs) and by the ES-module CLI entry
 * (cli/main.ts) that older installs registered. A bundle that is missing means a build without bundles:
 * the caller runs the hook through the CLI instead. One that fails to load is logged, and it is not
 * tried again in this process, so the CLI route the caller falls back to runs the unbundled entry.
 */
import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

import { codeCacheDir, readCodeCache, writeCodeCache } from './code-cache.js';

/** What a hook bundle exports (hooks/run-hook.ts `hookEntry`). */
interface HookBundleEntry {
  main(): Promise<number>;
}

export interface RunHookBundleOptions {
  /** The directory of the bundles (dist/hook-bundles). */
  bundleDir: string;
  env: NodeJS.ProcessEnv;
  /** Use and refresh the code cache (default true). */
  codeCache?: boolean;
}

/** Hook names are kebab-case words; nothing else is looked up as a file. */
const HOOK_NAME = /^[a-z]+(?:-[a-z]+)*$/;
/** Shared by every copy of this module in the process (the bundled executable and the tsc build). */
const FAILED = Symbol.for('mnemo.hookBundleFailed');

type FailureMark = Record<typeof FAILED, Set<string> | undefined>;

function failedBundles(): Set<string> {
  const holder = globalThis as unknown as FailureMark;
  holder[FAILED] ??= new Set();
  return holder[FAILED];
}

function readBundle(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const CHECKSUMS = '--verify-snapshot-checksum';

/**
 * Runs `work` with V8's code-cache checksums on, then off again (unless Node was started with them):
 * left on, every Node module loaded later would have its built-in code cache refused.
 */
function withChecksums<T>(work: () => T): T {
  v8.setFlagsFromString(CHECKSUMS);
  try {
    return work();
  } finally {
    if (!process.execArgv.includes(CHECKSUMS))
      v8.setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

/** A bundle or chunk compiled in this process, kept for writing its code cache after the run. */
interface Compiled {
  name: string;
  source: Buffer;
  cached: Buffer | undefined;
  script: vm.Script;
}

/** A chunk of a bundle (`./<name>.chunk.cjs`, scripts/bundle-hooks.mjs), as its bundle requires it. */
const CHUNK = /^\.\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)\.chunk\.cjs$/;

/**
 * Loads the bundles and chunks of one hook through the code cache. A chunk is evaluated once, on its
 * first `require`, like a CommonJS module; requests that are not chunks go to Node's `require`.
 */
class BundleLoader {
  readonly compiled: Compiled[] = [];
  private readonly chunks = new Map<string, unknown>();

  constructor(
    private readonly bundleDir: string,
    private readonly cacheDir: string | undefined,
  ) {}

  /** Compiles and evaluates `<bundleDir>/<file>` as a CommonJS module; returns its exports. */
  load(name: string, file: string, source: Buffer): unknown {
    const path = join(this.bundleDir, file);
    const cached =
      this.cacheDir === undefined ? undefined : readCodeCache(this.cacheDir, name, source);
    const script = withChecksums(
      () =>
        new vm.Script(nodeModule.wrap(source.toString('utf8')), {
          filename: path,
          cachedData: cached,
          // Bundles resolve their imports at build time; should one still reach `import()`, Node's own
          // loader answers it rather than a vm error.
          importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
        }),
    );
    this.compiled.push({ name, source, cached, script });
    const wrapper = script.runInThisContext() as (
      exports: unknown,
      require: NodeJS.Require,
      module: { exports: unknown },
      filename: string,
      dirname: string,
    ) => void;
    const module = { exports: {} as unknown };
    wrapper.call(
      module.exports,
      module.exports,
      this.requireFor(path),
      module,
      path,
      dirname(path),
    );
    return module.exports;
  }

  private requireFor(path: string): NodeJS.Require {
    const base = nodeModule.createRequire(path);
    const chunkRequire = (id: string): unknown => {
      const chunk = CHUNK.exec(id)?.[1];
      return chunk === undefined ? base(id) : this.chunk(chunk);
    };
    return Object.assign(chunkRequire, {
      resolve: base.resolve,
      cache: base.cache,
      main: base.main,
      extensions: base.extensions,
    }) as NodeJS.Require;
  }

  private chunk(name: string): unknown {
    if (this.chunks.has(name)) return this.chunks.get(name);
    const file = `${name}.chunk.cjs`;
    const source = readFileSync(join(this.bundleDir, file));
    const exports = this.load(`${name}.chunk`, file, source);
    this.chunks.set(name, exports);
    return exports;
  }

  /**
   * Saves the code of every script that had no usable cache, after the run, so the code of every
   * function the hook compiled is in it too.
   */
  saveCaches(): void {
    const dir = this.cacheDir;
    if (dir === undefined) return;
    for (const { name, source, cached, script } of this.compiled) {
      if (cached !== undefined && !script.cachedDataRejected) continue;
      writeCodeCache(
        dir,
        name,
        source,
        withChecksums(() => script.createCachedData()),
      );
    }
  }
}

async function logFailure(
  env: NodeJS.ProcessEnv,
  name: string,
  error: unknown,
  message?: string,
): Promise<void> {
  const { logHookLoadFailure } = await import('./hook-load-failure.js');
  logHookLoadFailure(env, name, error, message);
}

/**
 * Runs hook `name` from its bundle. Resolves true once the hook ran (it always exits 0 by itself), false
 * when there is no usable bundle and the caller must run the hook another way. Never throws.
 */
export async function runHookBundle(name: string, options: RunHookBundleOptions): Promise<boolean> {
  if (!HOOK_NAME.test(name) || failedBundles().has(name)) return false;
  let loader: BundleLoader;
  let entry: HookBundleEntry;
  try {
    const source = readBundle(join(options.bundleDir, `${name}.cjs`));
    if (source === undefined) return false;
    const cacheDir = options.codeCache === false ? undefined : codeCacheDir(options.env);
    loader = new BundleLoader(options.bundleDir, cacheDir);
    const exports = loader.load(name, `${name}.cjs`, source) as Partial<HookBundleEntry>;
    if (typeof exports.main !== 'function') throw new Error(`${name}.cjs exports no main()`);
    entry = exports as HookBundleEntry;
  } catch (error) {
    failedBundles().add(name);
    await logFailure(options.env, name, error);
    return false;
  }
  try {
    await entry.main();
  } catch (error) {
    // run-hook never rejects; should a bundle do so anyway, the hook still ends quietly and exits 0.
    await logFailure(options.env, name, error, 'hook failed; exited 0 without output');
  }
  loader.saveCaches();
  return true;
}
