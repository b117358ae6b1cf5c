// Builds the web viewer's front end into dist/web/ui as plain files the server reads at start: no CDN,
// no inline script or style (the server's Content-Security-Policy allows only 'self'), hashed asset names.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../../dist/web/ui', import.meta.url)),
    emptyOutDir: true,
    // The preload polyfill would be an inline script; every browser this targets has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
