import { beforeAll, describe, expect, it } from 'vitest';

import { cosineSimilarity } from '../core/ranking/cosine.js';
import { USE_DIMS, USE_MAX_INPUT_CHARS, USE_MODEL_ID, UseEmbedder } from './use-embedder.js';

// One real model for the file: loading it is the slow part (about a second), embedding is fast.
const embedder = new UseEmbedder({ batchSize: 4 });
beforeAll(() => embedder.load());

const similarity = async (a: string, b: string) => {
  const [va, vb] = await embedder.embed([a, b]);
  return cosineSimilarity(va!, vb!);
};

describe('UseEmbedder', () => {
  it('declares the model id and dimension it produces', () => {
    expect(embedder.model).toBe(USE_MODEL_ID);
    expect(embedder.model).toBe('use-lite-512');
    expect(embedder.dims).toBe(USE_DIMS);
  });

  it('returns one 512-d unit vector per text', async () => {
    const vectors = await embedder.embed(['The build is failing.', 'Tests pass on main.']);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(512);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    }
  });

  it('places paraphrases nearer than unrelated sentences', async () => {
    const cases: [string, string, string][] = [
      [
        'How do I reset my password?',
        'I forgot my password and need to change it.',
        'The weather in Paris is sunny today.',
      ],
      [
        'The database connection timed out.',
        'Could not reach the DB server before the timeout.',
        'Bake the cake for thirty minutes.',
      ],
      [
        'Run the tests before every commit.',
        'Always execute the test suite prior to committing.',
        'The cat sleeps on the windowsill.',
      ],
    ];
    for (const [anchor, paraphrase, unrelated] of cases) {
      expect(await similarity(anchor, paraphrase)).toBeGreaterThan(
        (await similarity(anchor, unrelated)) + 0.1,
      );
    }
  });

  it('gives the same vectors across batch boundaries as one text at a time', async () => {
    const texts = ['one', 'two words', 'three little words', 'four', 'five and more', 'six'];
    const batched = await embedder.embed(texts);
    expect(batched).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i]!]);
      expect(cosineSimilarity(batched[i]!, alone!)).toBeGreaterThan(0.9999);
    }
  });

  it('keeps every text aligned with its vector when a batch holds an empty string', async () => {
    const [first, empty, last] = await embedder.embed(['alpha', '', 'deploy to production']);
    const [alone] = await embedder.embed(['deploy to production']);
    expect(empty).toHaveLength(512);
    expect(first).toBeDefined();
    expect(cosineSimilarity(last!, alone!)).toBeGreaterThan(0.9999);
    // The package itself would return one vector here: it drops a trailing empty row.
    expect(await embedder.embed(['alpha', ''])).toHaveLength(2);
  });

  it('embeds only the head of a text longer than the input limit', async () => {
    const head = 'Use WAL mode and a busy timeout for SQLite. '.repeat(200);
    expect(head.length).toBeGreaterThan(USE_MAX_INPUT_CHARS);
    const [long, short] = await embedder.embed([
      `${head}Completely different trailing text.`,
      head,
    ]);
    expect(cosineSimilarity(long!, short!)).toBeGreaterThan(0.9999);
  });

  it('cuts a long text between characters, never inside one', async () => {
    const capped = new UseEmbedder({ maxInputChars: 6 });
    const [cut] = await capped.embed(['hello😀 world']);
    const [hello] = await capped.embed(['hello']);
    expect(cosineSimilarity(cut!, hello!)).toBeGreaterThan(0.9999);
  });

  it('embeds an empty batch without loading anything', async () => {
    expect(await new UseEmbedder().embed([])).toEqual([]);
  });

  it('rejects a batch size or input limit that is not a positive integer', () => {
    for (const options of [{ batchSize: 0 }, { batchSize: 1.5 }, { maxInputChars: -1 }]) {
      expect(() => new UseEmbedder(options)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });
});
