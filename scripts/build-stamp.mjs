// Whether dist/ was built from the sources as they are: `check` exits 0 when dist/.build-stamp holds
// the hash of every build input (src/, the build scripts and configs, package.json and the lockfile),
// 1 otherwise; `write` records it. `prepare` runs `check || npm run build`, so `npm ci` on a fresh
// clone builds once, and an `npx mnemo …` or `npm link` in the checkout (npm runs `prepare` for a
// linked directory each time) does not rebuild an unchanged tree.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp');
const OUTPUTS = ['dist/cli/mnemo.cjs', 'dist/cli/main.js', 'dist/hook-bundles'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/bundle-hooks.mjs',
  'scripts/make-bin-executable.mjs',
  'scripts/build-stamp.mjs',
];

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

function inputsHash() {
  const files = [
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
    ...filesUnder(join(root, 'src')),
  ];
  const hash = createHash('sha256').update(`node ${process.versions.modules}\n`);
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash
      .update(`${file}\n`)
      .update(readFileSync(join(root, file)))
      .update('\n');
  }
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') {
  writeFileSync(STAMP, `${inputsHash()}\n`);
} else if (mode === 'check') {
  const built = OUTPUTS.every((output) => existsSync(join(root, output)));
  const fresh = built && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === inputsHash();
  if (fresh) process.stdout.write('mnemo: dist/ is up to date with the sources; not rebuilding\n');
  process.exitCode = fresh ? 0 : 1;
} else {
  process.stderr.write('usage: node scripts/build-stamp.mjs check|write\n');
  process.exitCode = 2;
}
