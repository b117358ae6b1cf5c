// Preloaded into a hook process by test/e2e/hook-loading.test.ts (NODE_OPTIONS=--require): appends every
// package or Node module the process loads through `require` (the hook bundles load their drivers and
// Node modules that way) to $MNEMO_TEST_REQUIRES_FILE, one per line; at exit, `file:<name>` for each
// CommonJS file of mnemo's own the process ran (the executable and the parts it required).
const file = process.env.MNEMO_TEST_REQUIRES_FILE;
if (file) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload, kept tiny
  const { appendFileSync } = require('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function recordLoad(request, ...rest) {
    if (!request.startsWith('.') && !request.startsWith('/')) appendFileSync(file, `${request}\n`);
    return load.call(this, request, ...rest);
  };
  process.on('exit', () => {
    const own = Object.keys(require.cache).filter(
      (path) => /[\\/]dist[\\/]/.test(path) && !/[\\/]node_modules[\\/]/.test(path),
    );
    const names = own.map((path) => `file:${path.split(/[\\/]/).pop()}\n`);
    if (names.length > 0) appendFileSync(file, names.join(''));
  });
}
