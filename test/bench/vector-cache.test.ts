import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CachedEmbedder } from '../../bench/retrieval/vector-cache.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();

describe('CachedEmbedder', () => {
  it('serves a second run from disk with the same vectors, embedding only new texts', async () => {
    const dir = tempDir();
    const embedder = new HashEmbedder({ dims: 16 });
    const first = new CachedEmbedder(embedder, dir);
    const vectors = await first.embed(['alpha beta', 'gamma', 'alpha beta']);
    expect(first.stats.embedded).toBe(2);

    const second = new CachedEmbedder(embedder, dir);
    const again = await second.embed(['gamma', 'alpha beta', 'delta']);
    expect(second.stats.embedded).toBe(1);
    expect(again[0]).toEqual(vectors[1]);
    expect(again[1]).toEqual(vectors[0]);
    expect(again[2]).toEqual((await embedder.embed(['delta']))[0]);
  });

  it('drops a torn final record instead of misreading later ones', async () => {
    const dir = tempDir();
    const embedder = new HashEmbedder({ dims: 16 });
    await new CachedEmbedder(embedder, dir).embed(['one']);
    appendFileSync(join(dir, readdirSync(dir)[0]!), Buffer.alloc(7));
    const reopened = new CachedEmbedder(embedder, dir);
    await reopened.embed(['two']);
    const third = new CachedEmbedder(embedder, dir);
    const [one, two] = await third.embed(['one', 'two']);
    expect(third.stats.embedded).toBe(0);
    expect(two).toEqual((await embedder.embed(['two']))[0]);
    expect(one).toEqual((await embedder.embed(['one']))[0]);
  });
});
