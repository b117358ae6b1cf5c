// Bundles the executable and each hook (docs/benchmarks.md, "Hook latency"). Run by `npm run build`
// after tsc:
//
// - dist/cli/mnemo.cjs, from src/cli/bin.ts: the `mnemo` executable, CommonJS so a hook never starts
//   Node's ES-module loader. It runs a hook's bundle and imports dist/cli/main.js (tsc's) for the rest.
// - dist/hook-bundles/<name>.cjs, from src/hooks/entry/<name>.ts: one self-contained CommonJS file per
//   hook, compiled through V8's code cache by src/cli/hook-bundle-loader.ts. Modules are initialised when
//   first imported, so what a hook imports lazily (the store, retrieval) is parsed, not run.
// - External packages (native drivers, anything not listed below) stay `require` calls, made when the
//   module that imports them is initialised: the SQLite driver loads when the store is opened.
// - Node's own modules that Node has not loaded by itself at start-up are reached through getters that
//   `require` them on first use, so `node:crypto` or `node:os` load only in a hook that hashes or needs
//   the home directory.
// - Only small pure-JS packages are bundled (valibot, ulid).
// - `import.meta.url` is the bundle's own URL; the bundles sit at the depth of dist/<folder>/, so
//   relative paths (`../cli/main.js`) resolve as they do in tsc's output.
// - Output is ASCII (esbuild's default charset), so a bundle's bytes are its source text.
// `MNEMO_BUNDLE_REPORT=<file>` writes esbuild's metafiles there, for measuring what each hook loads.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/hook-bundles`;
const BUNDLED_PACKAGES = new Set(['valibot', 'ulid']);
const require = createRequire(import.meta.url);
/**
 * Node's modules that Node itself has loaded before any user code runs: cheap to `require`, and named
 * imports of them are plain property reads. Every other Node module is loaded on first use.
 */
const LOADED_AT_START = new Set(['buffer', 'events', 'fs', 'module', 'path', 'url', 'util', 'vm']);

function packageName(path) {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages stay external; Node's modules become a module of lazy getters (`lazy-builtin` namespace). */
const externals = (lazyBuiltins) => ({
  name: 'externals',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'lazy-builtin') return { path: args.path, external: true };
      const builtin = args.path.startsWith('node:') || builtinModules.includes(args.path);
      if (builtin) {
        const path = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
        // A module that is itself a function or class (`node:events`) is its own default export,
        // which an object of getters cannot stand in for: it stays a plain `require`.
        const lazy =
          lazyBuiltins &&
          !LOADED_AT_START.has(path.slice('node:'.length).split('/')[0]) &&
          typeof require(path) === 'object';
        return lazy ? { path, namespace: 'lazy-builtin' } : { path, external: true };
      }
      return BUNDLED_PACKAGES.has(packageName(args.path))
        ? undefined
        : { path: args.path, external: true };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const names = Object.keys(require(args.path)).filter((name) =>
        /^[A-Za-z_$][\w$]*$/.test(name),
      );
      const getters = names
        .map((name) => `  ${name}: { enumerable: true, get: () => load().${name} },`)
        .join('\n');
      return {
        contents: `let loaded;\nconst load = () => (loaded ??= require(${JSON.stringify(args.path)}));\nObject.defineProperties(module.exports, {\n${getters}\n});\n`,
        loader: 'js',
      };
    });
  },
});

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  define: { 'import.meta.url': '__mnemoModuleUrl' },
  banner: { js: "const __mnemoModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

const names = readdirSync(`${root}src/hooks/entry`)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => name.replace(/\.ts$/, ''));

/**
 * Each module a hook imports dynamically (`await import('../app/open-app.js')`) becomes a chunk of its
 * own, `<name>.chunk.cjs`, required only when that import runs: the code of the direct path (store
 * adapters, write path, ranking, rendering) is neither read nor compiled by a hook the engine answers or
 * a skip decides. Chunks split the same way, so the SQLite and PostgreSQL adapters are chunks of the
 * store opener's chunk. A module statically imported by a bundle and by one of its chunks is in both
 * (each chunk is self-contained; hooks/ share no mutable module state across that line, and
 * `MemoryError` is recognised across copies).
 */
const chunkName = (file) => relative(`${root}src`, file).replace(/\.ts$/, '').replaceAll('/', '.');
const chunkOf = (chunks) => ({
  name: 'chunks',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.?\// }, (args) => {
      // The stub's own `require` of the chunk file, resolved when the hook runs.
      if (args.namespace === 'chunk') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import') return undefined;
      const file = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      if (!file.startsWith(`${root}src/`)) return undefined;
      const name = chunkName(file);
      chunks.set(name, file);
      return { path: name, namespace: 'chunk' };
    });
    // A stub that `require`s the chunk: an external `import()` would stay an ES-module import in the
    // CommonJS output, which neither Node's `require` cache nor the hook loader's code cache serves.
    bundler.onLoad({ filter: /.*/, namespace: 'chunk' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`./${args.path}.chunk.cjs`)});\n`,
      loader: 'js',
    }));
  },
});

rmSync(outdir, { recursive: true, force: true });
const chunks = new Map();
const outputs = {};
const report = { inputs: {}, outputs: {} };
/** Builds one bundle or chunk; records its chunk imports in `chunks`. */
async function bundleOne(entry, outfile) {
  const result = await build({
    ...common,
    entryPoints: [entry],
    outfile,
    plugins: [chunkOf(chunks), externals(true)],
  });
  Object.assign(report.inputs, result.metafile.inputs);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    report.outputs[file] = output;
    outputs[file] = output;
  }
}
for (const name of names) {
  await bundleOne(`${root}src/hooks/entry/${name}.ts`, `${outdir}/${name}.cjs`);
}
const built = new Set();
for (let pending = [...chunks]; pending.length > 0; pending = [...chunks].filter(([n]) => !built.has(n))) {
  for (const [name, file] of pending) {
    built.add(name);
    await bundleOne(file, `${outdir}/${name}.chunk.cjs`);
  }
}
// A chunk's module also imported statically would run as two copies, one of them behind the dynamic
// import; the build refuses rather than ship that.
for (const [file, output] of Object.entries(outputs)) {
  const inBoth = Object.keys(output.inputs).filter(
    (input) => input !== output.entryPoint && chunks.has(chunkName(`${root}${input}`)),
  );
  if (inBoth.length > 0) throw new Error(`${file} bundles its chunk module(s) ${inBoth.join(', ')}`);
}
// The CLI stays tsc's ES modules: the executable imports it as it is, and the failure logger (which
// loads the redaction rules) only when something failed.
const cliModules = {
  name: 'cli-modules',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\/(main|hook-load-failure)\.js$/ }, (args) =>
      args.importer.endsWith('bin.ts') || args.importer.endsWith('hook-bundle-loader.ts')
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};
const bin = await build({
  ...common,
  entryPoints: [`${root}src/cli/bin.ts`],
  outfile: `${root}dist/cli/mnemo.cjs`,
  plugins: [cliModules, externals(false)],
});
for (const [file, output] of Object.entries({ ...outputs, ...bin.metafile.outputs })) {
  console.log(`bundle ${file.replace(/^.*dist\//, '')}: ${Math.round(output.bytes / 1024)} KiB`);
}
if (process.env.MNEMO_BUNDLE_REPORT) {
  writeFileSync(process.env.MNEMO_BUNDLE_REPORT, JSON.stringify(report));
}
