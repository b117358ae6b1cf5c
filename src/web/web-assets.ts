/**
 * The viewer's front end as built by `npm run build` (Vite, into dist/web/ui): read once at start into
 * memory and served from that table only, so no request path ever reaches the file system.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { MemoryError } from '../core/errors.js';

export interface UiAsset {
  body: Uint8Array;
  type: string;
  /** Hashed file names (Vite's assets/) never change content: they may be cached. */
  immutable: boolean;
}

/** URL path → asset; `/` is index.html. */
export type UiAssets = ReadonlyMap<string, UiAsset>;

/** Where the build puts the front end, from this file in src/web or dist/web alike. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../dist/web/ui/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Most bytes read: the bundle is a few hundred KB; anything near this is not our build. */
const MAX_TOTAL_BYTES = 20 * 1024 * 1024;

/**
 * Reads every file under `dir`. Throws UNSUPPORTED with the fix when the front end was not built
 * (no index.html), so `mnemo ui` says what to do instead of serving a blank page.
 */
export function loadUiAssets(dir: string = DEFAULT_UI_DIR): UiAssets {
  const assets = new Map<string, UiAsset>();
  let total = 0;
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      if (!entry.isFile()) continue;
      total += statSync(path).size;
      if (total > MAX_TOTAL_BYTES) throw new Error(`${dir} holds more than a front-end build`);
      const url = `/${relative(dir, path).split(sep).join('/')}`;
      assets.set(url, {
        body: readFileSync(path),
        type: TYPES[extname(path)] ?? 'application/octet-stream',
        immutable: url.startsWith('/assets/'),
      });
    }
  };
  try {
    walk(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const index = assets.get('/index.html');
  if (index === undefined) {
    throw new MemoryError(
      'UNSUPPORTED',
      `The web viewer is not built (no index.html in ${dir}). Run \`npm run build\`.`,
    );
  }
  assets.set('/', index);
  return assets;
}
