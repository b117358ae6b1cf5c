import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { writeTinyReranker } from '../../test/helpers/tiny-onnx-model.js';
import { openOnnxReranker } from '../embed/onnx-reranker.js';
import { ManualClock } from '../store/contract/fixtures.js';
import { retrieveDetailed } from './retrieve.js';

const tempDir = useTempDirs();
let app: TestApp;
const clock = new ManualClock('2025-06-01T00:00:00.000Z');
const here = { projectKey: '/p/here', includeGlobal: true };

beforeEach(async () => {
  app = await openTestApp(tempDir(), { clock });
});
afterEach(async () => {
  await app.close();
});

describe('retrieve with a cross-encoder', () => {
  it('is off and says so when no reranker directory exists', async () => {
    await app.store.remember({ content: 'deploy notes', projectKey: '/p/here', origin: 'user' });
    const reranker = openOnnxReranker('tests/absent', join(tempDir(), 'absent'));
    const report = await retrieveDetailed(
      { store: app.store, clock, reranker },
      { query: 'deploy', scope: here, limit: 5 },
    );
    expect(report.rerank).toEqual({
      ran: false,
      skipped: 'no reranker model directory',
      window: 0,
    });
    expect(report.hits[0]?.ranks.rerank).toBeUndefined();
  });

  it('adds the cross-encoder order as a signal that can reorder the top', async () => {
    const words = ['deploy', 'staging', 'production', 'notes', 'friday'];
    const dir = writeTinyReranker(join(tempDir(), 'tests', 'tiny-reranker'), {
      words,
      scoreOf: (word) => (word === 'production' ? 5 : 0),
    });
    const put = async (content: string) =>
      (await app.store.remember({ content, projectKey: '/p/here', origin: 'user' })).memory.id;
    const lexicalFirst = await put('deploy deploy deploy staging notes');
    const rerankFirst = await put('deploy production friday');
    const withoutRerank = await retrieveDetailed(
      { store: app.store, clock },
      { query: 'deploy', scope: here, limit: 5 },
    );
    expect(withoutRerank.hits[0]?.memory.id).toBe(lexicalFirst);
    const report = await retrieveDetailed(
      { store: app.store, clock, reranker: openOnnxReranker('tests/tiny-reranker', dir) },
      { query: 'deploy', scope: here, limit: 5 },
    );
    expect(report.rerank).toEqual({ ran: true, model: 'tests/tiny-reranker', window: 2 });
    const first = report.hits[0]!;
    expect(first.memory.id).toBe(rerankFirst);
    expect(first.ranks.rerank).toBe(1);
  });
});
