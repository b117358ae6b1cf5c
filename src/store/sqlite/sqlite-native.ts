/**
 * Where the SQLite driver's native addon and sqlite-vec's loadable extension are, found with a few
 * `stat`s instead of the packages' own resolution, which every hook on the direct path would pay
 * (docs/benchmarks.md, "Hook latency"): better-sqlite3 asks `bindings`, which takes a stack trace to
 * find the package and then `require`s candidate paths until one loads; sqlite-vec is a package whose
 * `exports` map starts Node's ES-module resolver only to name a file next to it.
 *
 * Each file is taken only where the package's own resolution would take it too; anything else (a Debug
 * build, a nested copy, an unusual layout) is left to that resolution: `driver` or `vec` is undefined
 * and the caller lets the package find its file as before.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

export interface NativeFiles {
  /** better-sqlite3's addon (its `nativeBinding` option), when found directly. */
  readonly driver?: string;
  /** sqlite-vec's loadable extension for this platform, when found directly. */
  readonly vec?: string;
}

const ADDON = 'better_sqlite3.node';
/** `bindings`' first candidates for the addon, in its order, before `build/Release`. */
const EARLIER_BINDINGS = [join('build', ADDON), join('build', 'Debug', ADDON)];

/** sqlite-vec's name for this platform's package and file (its index.cjs `getLoadablePath`). */
function vecFileName(platform: NodeJS.Platform, arch: string): { pkg: string; file: string } {
  const os = platform === 'win32' ? 'windows' : platform;
  const suffix = platform === 'win32' ? 'dll' : platform === 'darwin' ? 'dylib' : 'so';
  return { pkg: `sqlite-vec-${os}-${arch}`, file: `vec0.${suffix}` };
}

/**
 * The native files as the packages resolved from `from` (a module URL or path) would load them.
 * Never throws.
 */
export function locateNativeFiles(
  from: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): NativeFiles {
  let root: string;
  try {
    root = dirname(createRequire(from).resolve('better-sqlite3/package.json'));
  } catch {
    return {};
  }
  const release = join(root, 'build', 'Release', ADDON);
  const driver =
    existsSync(release) && EARLIER_BINDINGS.every((file) => !existsSync(join(root, file)))
      ? release
      : undefined;
  // sqlite-vec resolves its platform package from its own folder: a sibling of better-sqlite3 in the
  // same node_modules, with no node_modules of its own to hold a nearer copy.
  const modules = dirname(root);
  const { pkg, file } = vecFileName(platform, arch);
  const vecPath = join(modules, pkg, file);
  const vec =
    basename(modules) === 'node_modules' &&
    existsSync(join(modules, 'sqlite-vec', 'package.json')) &&
    !existsSync(join(modules, 'sqlite-vec', 'node_modules')) &&
    existsSync(vecPath)
      ? vecPath
      : undefined;
  return { ...(driver === undefined ? {} : { driver }), ...(vec === undefined ? {} : { vec }) };
}

let located: NativeFiles | undefined;

/** {@link locateNativeFiles} for the packages this module resolves, once per process. */
export function nativeFiles(): NativeFiles {
  located ??= locateNativeFiles(import.meta.url);
  return located;
}

/** sqlite-vec's own `load`, required only when its file was not found directly. */
export function loadVecThroughPackage(db: { loadExtension(file: string): unknown }): void {
  const sqliteVec = createRequire(import.meta.url)('sqlite-vec') as {
    load(db: { loadExtension(file: string): unknown }): void;
  };
  sqliteVec.load(db);
}
