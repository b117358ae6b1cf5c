import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { UseEmbedder } from './use-embedder.js';

const loadedModelPackages = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((path) =>
    path.includes('@energetic-ai'),
  );

// A file of its own: vitest runs each test file in a fresh process, so nothing else has loaded the model.
describe('UseEmbedder loading', () => {
  it('loads no model code until a text is embedded', async () => {
    const embedder = new UseEmbedder();
    expect(embedder.dims).toBe(512);
    expect(loadedModelPackages()).toEqual([]);
    await embedder.embed(['now it loads']);
    expect(loadedModelPackages()).not.toEqual([]);
  });
});
