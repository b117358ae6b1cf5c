import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { writeTinyReranker } from '../../test/helpers/tiny-onnx-model.js';
import { openOnnxReranker } from './onnx-reranker.js';

const tempDir = useTempDirs();
const WORDS = ['sqlite', 'lock', 'busy', 'pnpm', 'test', 'cat', 'dog'];
const SCORES: Record<string, number> = { sqlite: 2, lock: 1, busy: 1, cat: -1 };

describe('OnnxReranker', () => {
  it('is off (undefined) when the model directory is absent or incomplete', () => {
    expect(openOnnxReranker('tests/none', join(tempDir(), 'nothing'))).toBeUndefined();
    expect(openOnnxReranker('tests/empty', tempDir())).toBeUndefined();
  });

  it('scores each (query, document) pair jointly with the cross-encoder', async () => {
    const dir = writeTinyReranker(join(tempDir(), 'tests', 'tiny-reranker'), {
      words: WORDS,
      scoreOf: (word) => SCORES[word] ?? 0,
    });
    const reranker = openOnnxReranker('tests/tiny-reranker', dir);
    expect(reranker?.model).toBe('tests/tiny-reranker');
    const docs = ['dog', 'sqlite lock', 'cat cat', 'busy', 'pnpm test'];
    const scores = await reranker!.score('sqlite', docs);
    // The logit sums token scores over query and document: query "sqlite" adds 2 to every pair.
    expect(scores).toEqual([2, 5, 0, 3, 2]);
  });
});
