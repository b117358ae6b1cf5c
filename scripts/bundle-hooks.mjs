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

rmSync(outdir, { recursive: true, force: true });
const hooks = await build({
  ...common,
  entryPoints: Object.fromEntries(names.map((name) => [name, `${root}src/hooks/entry/${name}.ts`])),
  outdir,
  outExtension: { '.js': '.cjs' },
  plugins: [externals(true)],
});
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
for (const [file, output] of Object.entries({
  ...hooks.metafile.outputs,
  ...bin.metafile.outputs,
})) {
  console.log(`bundle ${file.replace(/^.*dist\//, '')}: ${Math.round(output.bytes / 1024)} KiB`);
}
if (process.env.MNEMO_BUNDLE_REPORT) {
  writeFileSync(process.env.MNEMO_BUNDLE_REPORT, JSON.stringify(hooks.metafile));
}
