import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { cosineSimilarity } from '../core/ranking/cosine.js';
import { HASH_EMBEDDER_DEFAULT_DIMS, hashEmbed, HashEmbedder } from './hash-embedder.js';

const embedder = new HashEmbedder();
const similarity = async (a: string, b: string) => {
  const [va, vb] = await embedder.embed([a, b]);
  return cosineSimilarity(va!, vb!);
};

describe('HashEmbedder', () => {
  it('names its model after the algorithm version and dimension', () => {
    expect(embedder.model).toBe(`hash-v1-${HASH_EMBEDDER_DEFAULT_DIMS}`);
    expect(embedder.dims).toBe(256);
    expect(new HashEmbedder({ dims: 64 }).model).toBe('hash-v1-64');
  });

  it('returns one unit vector of the configured dimension per text, in order', async () => {
    const texts = ['alpha beta', 'gamma', 'alpha beta'];
    const vectors = await new HashEmbedder({ dims: 32 }).embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(32);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    expect(vectors[0]).toEqual(vectors[2]);
    expect(vectors[0]).toEqual(hashEmbed('alpha beta', 32));
    expect(vectors[1]).toEqual(hashEmbed('gamma', 32));
  });

  it('keeps vectors stable for a given model id', () => {
    // If this fails, the algorithm changed: bump `hash-v1` so stored vectors are not compared with new ones.
    const expected = [
      0.185695, -0.371391, -0.371391, 0.185695, 0.371391, -0.371391, 0, 0, 0, 0, 0.371391,
      -0.371391, -0.185695, -0.185695, -0.185695, 0,
    ];
    const actual = Array.from(hashEmbed('Use WAL mode for SQLite', 16));
    actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 5));
  });

  it('places texts that share words nearer than unrelated texts', async () => {
    const query = 'the database connection pool is exhausted';
    const near = await similarity(query, 'connection pool exhausted in the database layer');
    const far = await similarity(query, 'bake the bread at 200 degrees for forty minutes');
    expect(near).toBeGreaterThan(0.6);
    expect(far).toBeLessThan(0.2);
  });

  it('places an identifier near the same words written as prose', async () => {
    const near = await similarity('SqliteMemoryStore', 'sqlite memory store');
    const far = await similarity('SqliteMemoryStore', 'postgres user table');
    expect(near).toBeGreaterThan(far + 0.4);
  });

  it('places different forms of a word nearer than a different word', async () => {
    expect(await similarity('indexing', 'indexes')).toBeGreaterThan(
      (await similarity('indexing', 'weather')) + 0.2,
    );
  });

  it('ignores case and full-width forms', async () => {
    expect(await similarity('Retry The Upload', 'retry the upload')).toBeCloseTo(1, 6);
    expect(await similarity('ｒｅｔｒｙ', 'retry')).toBeCloseTo(1, 6);
  });

  it('gives symbol-only text a vector and whitespace the zero vector', async () => {
    const [symbols, blank] = await embedder.embed(['=> ¯\\_(ツ)_/¯', ' \n\t']);
    expect(Math.hypot(...symbols!)).toBeCloseTo(1, 5);
    expect(blank!.every((x) => x === 0)).toBe(true);
  });

  it('returns unit or zero vectors for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const norm = Math.hypot(...hashEmbed(text, 64));
        expect(norm === 0 || Math.abs(norm - 1) < 1e-5).toBe(true);
      }),
    );
  });

  it('embeds an empty batch as an empty list', async () => {
    expect(await embedder.embed([])).toEqual([]);
  });

  it('rejects a dimension outside the supported range', () => {
    for (const dims of [0, 7, 4097, 12.5, Number.NaN]) {
      expect(() => new HashEmbedder({ dims })).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });
});
