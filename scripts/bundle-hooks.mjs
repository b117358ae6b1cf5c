// Bundles each hook's entry (src/hooks/entry/<name>.ts) into dist/hook-bundles/<name>.js, so a hook
// process loads a few files instead of a few hundred modules (docs/benchmarks.md, "Hook latency"). Run by
// `npm run build` after tsc; cli/main.ts falls back to tsc's dist/hooks/entry/ when a bundle is missing.
//
// - One self-contained ESM file per hook. Modules the hook imports lazily (the store, retrieval) are in
//   the file but initialised only when the event reads or writes, so their code is parsed, not run.
// - External packages (native drivers, Node's modules, anything not listed below) are loaded with `require` from a
//   one-line CommonJS wrapper, which esbuild initialises with the module that imports it: the SQLite
//   driver loads when the store is opened, never at start-up. (A plain external import would be hoisted
//   to the top of the bundle and load the driver in every hook.)
// - Only small pure-JS packages are bundled (valibot, ulid).
// - The bundles sit at the depth of dist/<folder>/, so `import.meta.url`-relative paths (`../cli/main.js`)
//   resolve as they do in tsc's output.
// `MNEMO_BUNDLE_REPORT=<file>` writes esbuild's metafiles there, for measuring what each hook loads.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist/hook-bundles`;
const BUNDLED_PACKAGES = new Set(['valibot', 'ulid']);

const lazyPackages = {
  name: 'lazy-packages',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'lazy-package') return { path: args.path, external: true };
      // Node's own modules too: `node:crypto` or `node:child_process` compile on first use, and a hook
      // loads them only when a module that needs them runs.
      if (args.path.startsWith('node:')) return { path: args.path, namespace: 'lazy-package' };
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      return BUNDLED_PACKAGES.has(name)
        ? undefined
        : { path: args.path, namespace: 'lazy-package' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

const names = readdirSync(`${root}src/hooks/entry`)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => name.replace(/\.ts$/, ''));

rmSync(outdir, { recursive: true, force: true });
const built = await build({
  entryPoints: Object.fromEntries(names.map((name) => [name, `${root}src/hooks/entry/${name}.ts`])),
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: {
    js: "import { createRequire as __mnemoCreateRequire } from 'node:module';\nconst require = __mnemoCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [lazyPackages],
});
for (const [file, output] of Object.entries(built.metafile.outputs)) {
  if (file.endsWith('.js')) {
    console.log(`hook bundle ${file.replace(/^.*\//, '')}: ${Math.round(output.bytes / 1024)} KiB`);
  }
}
if (process.env.MNEMO_BUNDLE_REPORT) {
  writeFileSync(process.env.MNEMO_BUNDLE_REPORT, JSON.stringify(built.metafile));
}
