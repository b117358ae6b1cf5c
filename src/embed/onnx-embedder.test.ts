import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { pseudoRandomVector, writeTinyEncoder } from '../../test/helpers/tiny-onnx-model.js';
import { isMemoryError } from '../core/errors.js';
import { cosineSimilarity, l2Normalize } from '../core/ranking/cosine.js';
import { loadedOnnxModels, openOnnxEmbedder } from './onnx-embedder.js';

const tempDir = useTempDirs();
const WORDS = ['sqlite', 'store', 'lock', 'busy', 'timeout', 'pnpm', 'test', 'cat', 'dog'];
const DIMS = 16;

/** The vector the generated model gives `word` (special tokens are zero). */
function wordVector(word: string): number[] {
  return pseudoRandomVector(WORDS.indexOf(word) + 5, DIMS);
}

function expectedMean(words: string[]): Float32Array {
  const sum = new Array<number>(DIMS).fill(0);
  for (const word of words) wordVector(word).forEach((v, i) => (sum[i]! += v));
  return l2Normalize(sum);
}

function tinyModel(): { id: string; dir: string } {
  const id = 'tests/tiny-encoder';
  const dir = writeTinyEncoder(join(tempDir(), 'models', 'tests', 'tiny-encoder'), {
    words: WORDS,
    dims: DIMS,
  });
  return { id, dir };
}

describe('OnnxEmbedder', () => {
  it('reports the model id and the dimension from config.json before loading', () => {
    const embedder = openOnnxEmbedder(tinyModel());
    expect(embedder.model).toBe('tests/tiny-encoder');
    expect(embedder.dims).toBe(DIMS);
  });

  it('mean-pools word vectors over the attention mask and normalises', async () => {
    const embedder = openOnnxEmbedder(tinyModel());
    const [one, two] = await embedder.embed(['SQLite store', 'busy lock timeout']);
    // [CLS] and [SEP] are zero vectors but count in the mean; normalising removes the scale.
    expect(cosineSimilarity(one!, expectedMean(['sqlite', 'store']))).toBeCloseTo(1, 5);
    expect(cosineSimilarity(two!, expectedMean(['busy', 'lock', 'timeout']))).toBeCloseTo(1, 5);
    let norm = 0;
    for (const v of one!) norm += v * v;
    expect(norm).toBeCloseTo(1, 5);
  });

  it('gives each text of a padded batch the vector it gets alone', async () => {
    const embedder = openOnnxEmbedder({ ...tinyModel(), batchSize: 3 });
    const texts = ['cat', 'sqlite store busy lock timeout pnpm test', 'dog', 'pnpm test', 'store'];
    const batched = await embedder.embed(texts);
    expect(batched).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(cosineSimilarity(batched[i]!, alone!)).toBeCloseTo(1, 5);
    }
  });

  it('loads a model directory once per process and shares it', async () => {
    const model = tinyModel();
    const before = loadedOnnxModels();
    await openOnnxEmbedder(model).embed(['cat']);
    await openOnnxEmbedder(model).embed(['dog']);
    expect(loadedOnnxModels()).toBe(before + 1);
  });

  it('embeds empty input and empty strings without shifting rows', async () => {
    const embedder = openOnnxEmbedder(tinyModel());
    expect(await embedder.embed([])).toEqual([]);
    const vectors = await embedder.embed(['', 'cat']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]!.every(Number.isFinite)).toBe(true);
    expect(cosineSimilarity(vectors[1]!, expectedMean(['cat']))).toBeCloseTo(1, 5);
  });

  it('refuses an incomplete model directory with the missing files named', () => {
    const dir = tempDir();
    let error: unknown;
    try {
      openOnnxEmbedder({ id: 'tests/empty', dir });
    } catch (e) {
      error = e;
    }
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(
      /missing config\.json, tokenizer\.json.*mnemo model pull/,
    );
  });
});
