// Bundles the executable and each hook (docs/benchmarks.md, "Hook latency"). Run by `npm run build`
// after tsc:
//
// - dist/cli/mnemo.cjs, from src/cli/bin.ts: the `mnemo` executable, CommonJS so a hook never starts
//   Node's ES-module loader. It forwards a hook to the engine, runs a hook's bundle through
//   dist/cli/hook-bundle-loader.cjs (its own file, so a forwarded hook never compiles it), maps another
//   client's hook payload with dist/cli/client-hook-plan.cjs (its own file too) and imports
//   dist/cli/main.js (tsc's) for the rest.
// - dist/hook-bundles/<name>.cjs, from src/hooks/entry/<name>.ts: one CommonJS file per hook with what
//   it runs before it would open the store, compiled through V8's code cache by
//   src/cli/hook-bundle-loader.ts; what it imports dynamically is in <name>.direct.chunk.cjs (below).
// - External packages (native drivers, anything not listed below) stay `require` calls, made when the
//   module that imports them is initialised: the SQLite driver loads when the store is opened.
// - Node's own modules that Node has not loaded by itself at start-up are reached through a proxy that
//   `require`s them on the first property read, so `node:crypto` or `node:os` load only in a hook that
//   hashes or needs the home directory.
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

/** Packages stay external; Node's modules become lazy stand-ins (`lazy-builtin` namespace). */
const externals = (lazyBuiltins) => ({
  name: 'externals',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'lazy-builtin') return { path: args.path, external: true };
      const builtin = args.path.startsWith('node:') || builtinModules.includes(args.path);
      if (builtin) {
        const path = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
        // A module that is itself a function or class (`node:events`) is its own default export,
        // which a plain object cannot stand in for: it stays a plain `require`.
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
    // The module's exports are an empty object whose prototype is a proxy onto the real module, loaded
    // on the first property read. Nothing is defined per name: esbuild's import interop copies a
    // module's own properties at every import site, and the getters it used to copy for each of
    // `node:crypto`'s 50-odd names were a measurable share of a forwarded hook's start-up.
    bundler.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: [
        'let loaded;',
        `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
        'module.exports = Object.create(',
        '  new Proxy({}, {',
        '    get: (_, name) => (name === "__esModule" ? undefined : load()[name]),',
        '    has: (_, name) => name in load(),',
        '  }),',
        ');',
        '',
      ].join('\n'),
      loader: 'js',
    }));
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
 * A hook's bundle holds what it runs before it would open the store. Each module it imports dynamically
 * (the store opener, the write path, the injecting handlers: what only the direct path needs) is in
 * one chunk per hook, `<hook>.direct.chunk.cjs`, required when the first of those imports runs: a hook
 * the engine answers, or a skip, neither reads nor compiles it. Inside that chunk, dynamic imports stay
 * lazily initialised modules, except the PostgreSQL adapter, a chunk of its own that only a PostgreSQL
 * home loads. A module the bundle and its chunk both import is in both files (hooks/ share no mutable
 * module state across that line, and `MemoryError` is recognised across copies); a module the bundle
 * imports statically is never also reached through one of its dynamic imports (checked below).
 */
const srcFile = (resolveDir, path) => resolve(resolveDir, path).replace(/\.js$/, '.ts');
const keyOf = (file) => relative(`${root}src`, file).replace(/\.ts$/, '');
const POSTGRES = 'store/postgres/open-postgres-store';
const POSTGRES_CHUNK = `${POSTGRES.replaceAll('/', '.')}.chunk.cjs`;

/** The stub of a module behind a chunk: `require`s the chunk (an external `import()` would stay an
 * ES-module import in the CommonJS output, which the hook loader's code cache does not serve). */
const stub = (chunkFile, key) => ({
  contents: `module.exports = require(${JSON.stringify(`./${chunkFile}`)})${key === undefined ? '' : `[${JSON.stringify(key)}]`};\n`,
  loader: 'js',
});

/** For a hook's bundle: every dynamic import inside src/ goes to the hook's direct chunk. */
const toDirectChunk = (hook, targets) => ({
  name: 'direct-chunk',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace === 'chunk') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import') return undefined;
      const file = srcFile(args.resolveDir, args.path);
      if (!file.startsWith(`${root}src/`)) return undefined;
      targets.set(keyOf(file), file);
      return { path: keyOf(file), namespace: 'chunk' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'chunk' }, (args) =>
      stub(`${hook}.direct.chunk.cjs`, args.path),
    );
  },
});

/** For a direct chunk: the PostgreSQL adapter stays out, in its own chunk; other imports are inlined. */
const postgresApart = {
  name: 'postgres-apart',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace === 'chunk') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import') return undefined;
      return keyOf(srcFile(args.resolveDir, args.path)) === POSTGRES
        ? { path: POSTGRES, namespace: 'chunk' }
        : undefined;
    });
    bundler.onLoad({ filter: /.*/, namespace: 'chunk' }, () => stub(POSTGRES_CHUNK));
  },
};

rmSync(outdir, { recursive: true, force: true });
const outputs = {};
const report = { inputs: {}, outputs: {} };
async function bundleOne(options, plugins) {
  const result = await build({ ...common, ...options, plugins: [...plugins, externals(true)] });
  Object.assign(report.inputs, result.metafile.inputs);
  Object.assign(report.outputs, result.metafile.outputs);
  Object.assign(outputs, result.metafile.outputs);
  return result.metafile.outputs;
}
for (const name of names) {
  const targets = new Map();
  const bundle = await bundleOne(
    { entryPoints: [`${root}src/hooks/entry/${name}.ts`], outfile: `${outdir}/${name}.cjs` },
    [toDirectChunk(name, targets)],
  );
  // A module the bundle also imports statically would run as two copies, one of them behind the
  // dynamic import; the build refuses rather than ship that.
  for (const output of Object.values(bundle)) {
    const both = Object.keys(output.inputs).filter((input) =>
      targets.has(keyOf(`${root}${input}`)),
    );
    if (both.length > 0)
      throw new Error(`${name}: ${both.join(', ')} imported statically and dynamically`);
  }
  if (targets.size === 0) continue;
  // The chunk exports each module's namespace under its key (`app/open-app`).
  const contents = [...targets]
    .map(
      ([key, file], i) =>
        `import * as m${i} from ${JSON.stringify(file)};\nexport { m${i} as ${JSON.stringify(key)} };`,
    )
    .join('\n');
  await bundleOne(
    {
      stdin: { contents, resolveDir: `${root}src`, sourcefile: `${name}.direct.ts`, loader: 'ts' },
      outfile: `${outdir}/${name}.direct.chunk.cjs`,
    },
    [postgresApart],
  );
}
await bundleOne(
  { entryPoints: [`${root}src/${POSTGRES}.ts`], outfile: `${outdir}/${POSTGRES_CHUNK}` },
  [postgresApart],
);
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
/**
 * The executable's parts that only some runs need, each its own CommonJS file that it requires when it
 * needs it: the hook-bundle loader (a hook the engine answered never compiles it) and the mapping of
 * another client's hook payload (a Claude Code hook never reads it).
 */
const CLI_PARTS = {
  './hook-bundle-loader.js': {
    file: 'hook-bundle-loader.cjs',
    source: 'cli/hook-bundle-loader.ts',
  },
  '../hooks/clients/plan-client-hook.js': {
    file: 'client-hook-plan.cjs',
    source: 'hooks/clients/plan-client-hook.ts',
  },
};
const partsApart = {
  name: 'parts-apart',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.?\// }, (args) => {
      const part = CLI_PARTS[args.path];
      return part !== undefined && args.importer.endsWith('bin.ts')
        ? { path: part.file, namespace: 'cli-part' }
        : undefined;
    });
    bundler.onResolve({ filter: /.*/, namespace: 'cli-part' }, (args) => ({
      path: args.path,
      external: true,
    }));
    bundler.onLoad({ filter: /.*/, namespace: 'cli-part' }, (args) => stub(args.path));
  },
};
const parts = {};
for (const part of Object.values(CLI_PARTS)) {
  const result = await build({
    ...common,
    entryPoints: [`${root}src/${part.source}`],
    outfile: `${root}dist/cli/${part.file}`,
    plugins: [cliModules, externals(true)],
  });
  Object.assign(parts, result.metafile.outputs);
}
const bin = await build({
  ...common,
  entryPoints: [`${root}src/cli/bin.ts`],
  outfile: `${root}dist/cli/mnemo.cjs`,
  plugins: [partsApart, cliModules, externals(true)],
});
for (const [file, output] of Object.entries({
  ...outputs,
  ...parts,
  ...bin.metafile.outputs,
})) {
  console.log(`bundle ${file.replace(/^.*dist\//, '')}: ${Math.round(output.bytes / 1024)} KiB`);
}
if (process.env.MNEMO_BUNDLE_REPORT) {
  writeFileSync(process.env.MNEMO_BUNDLE_REPORT, JSON.stringify(report));
}
