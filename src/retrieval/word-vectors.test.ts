import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { l2Normalize } from '../core/ranking/cosine.js';
import { CONTEXT_RULE_VERSION } from '../core/text/capture-context.js';
import { WordTable } from '../embed/word-table.js';
import { ManualClock } from '../store/contract/fixtures.js';
import { embedPending, memoryVectors } from './embed-pending.js';
import { retrieveDetailed } from './retrieve.js';
import {
  COMPONENT_MIN_DOCS,
  firstComponent,
  openWordEmbedder,
  WORD_CONTEXT_LINE_WEIGHT,
  WORD_MODEL_FAMILY,
  WORD_VECTOR_RULE,
  WORD_VECTOR_RULE_ID,
  wordModelId,
} from './word-vectors.js';

const tempDir = useTempDirs();
let app: TestApp;
const clock = new ManualClock('2025-06-01T00:00:00.000Z');

// A 3-d table: cache words point one way, deploy words another, "the" a bit of both.
const WORDS = ['cache', 'redis', 'ttl', 'deploy', 'release', 'rollout', 'the'];
const VECTORS = [
  [1, 0.1, 0],
  [0.9, 0.2, 0],
  [0.8, 0, 0.1],
  [0, 1, 0.1],
  [0.1, 0.9, 0],
  [0, 0.8, 0.2],
  [0.5, 0.5, 0.5],
];
function table(): WordTable {
  const scales = new Float32Array(WORDS.length).fill(1 / 127);
  const values = Int8Array.from(VECTORS.flat().map((x) => Math.round(x * 127)));
  return new WordTable(WORDS, 3, scales, values);
}

beforeEach(async () => {
  app = await openTestApp(join(tempDir(), 'home'), { clock });
});
afterEach(async () => {
  await app.close();
});

describe('word vectors (SIF)', () => {
  it('records its own model id per vector and re-estimates the common component as the store grows', async () => {
    for (const text of ['the redis cache ttl', 'the deploy rollout']) {
      await app.store.remember({ content: text, projectKey: '/p' });
    }
    const small = await openWordEmbedder(app.store, table());
    expect(small.model).toBe(wordModelId(null));
    expect(small.model).toBe(
      `${WORD_MODEL_FAMILY}-raw-r${WORD_VECTOR_RULE}-${CONTEXT_RULE_VERSION}`,
    );
    expect(
      await embedPending(app.store, small, { max: 100, batchSize: 10, slot: 'extra' }),
    ).toEqual({
      embedded: 2,
      skipped: 0,
    });
    expect(await app.store.listUnembedded(small.model, 10)).toEqual([]);
    // Extra vectors leave the sentence slot alone.
    expect((await app.store.listMemories({ limit: 1 }))[0]!.embeddingModel).toBeNull();

    for (let i = 0; i < COMPONENT_MIN_DOCS; i++) {
      await app.store.remember({ content: `the release ${i} rollout cache`, projectKey: '/p' });
    }
    const grown = await openWordEmbedder(app.store, table());
    expect(grown.model).toMatch(new RegExp(`^${WORD_MODEL_FAMILY}-[0-9a-f]{8}$`));
    // The old model's vectors are gone: they were computed without the component.
    expect(
      await app.store.searchVector(
        { model: small.model, values: Float32Array.from([1, 0, 0]) },
        { limit: 5 },
      ),
    ).toEqual([]);
    // Re-opening without growth keeps the model.
    expect((await openWordEmbedder(app.store, table())).model).toBe(grown.model);
  });

  it('runs as the words leg of recall and finds a memory by related words', async () => {
    const cacheNote = (await app.store.remember({ content: 'redis ttl', projectKey: '/p' })).memory
      .id;
    await app.store.remember({ content: 'release rollout', projectKey: '/p' });
    const words = await openWordEmbedder(app.store, table());
    await embedPending(app.store, words, { max: 10, batchSize: 10, slot: 'extra' });
    const report = await retrieveDetailed(
      { store: app.store, clock, wordEmbedder: words },
      { query: 'cache', scope: { projectKey: '/p', includeGlobal: false }, limit: 5 },
    );
    expect(report.legs.find((leg) => leg.name === 'words')).toMatchObject({
      ran: true,
      detail: words.model,
    });
    expect(report.hits[0]?.memory.id).toBe(cacheNote);
    expect(report.hits[0]?.ranks.words).toBe(1);
  });

  it('replaces vectors stored under an earlier rule (model ids without the rule) with new ones', async () => {
    const { memory } = await app.store.remember({ content: 'the redis cache', projectKey: '/p' });
    const oldModel = `${WORD_MODEL_FAMILY}-raw`;
    await app.store.setModelState(WORD_MODEL_FAMILY, { model: oldModel, docs: 1, component: null });
    await app.store.setExtraVector(memory.id, {
      model: oldModel,
      values: Float32Array.from([1, 0, 0]),
    });

    const words = await openWordEmbedder(app.store, table());
    expect(words.model).toBe(wordModelId(null));
    expect(await app.store.getModelState(WORD_MODEL_FAMILY)).toMatchObject({ model: words.model });
    const probe = { values: Float32Array.from([1, 0, 0]) };
    expect(await app.store.searchVector({ model: oldModel, ...probe }, { limit: 5 })).toEqual([]);
    expect((await app.store.listUnembedded(words.model, 5)).map((m) => m.id)).toEqual([memory.id]);
    await embedPending(app.store, words, { max: 10, batchSize: 10, slot: 'extra' });
    const hits = await app.store.searchVector({ model: words.model, ...probe }, { limit: 5 });
    expect(hits.map((hit) => hit.id)).toEqual([memory.id]);
  });

  it(`mixes a memory's context lines into its words vector at ${WORD_CONTEXT_LINE_WEIGHT}`, async () => {
    const words = await openWordEmbedder(app.store, table());
    expect(words.contextLineWeight).toBe(WORD_CONTEXT_LINE_WEIGHT);
    const [mixed] = await memoryVectors(words, [
      { content: 'redis cache', context: 'deploy rollout\nrelease' },
    ]);
    const [own, first, second] = await words.embed(['redis cache', 'deploy rollout', 'release']);
    const expected = l2Normalize(
      Float64Array.from(own!, (v, d) => v + WORD_CONTEXT_LINE_WEIGHT * (first![d]! + second![d]!)),
    );
    expect([...mixed!].map((v) => v.toFixed(5))).toEqual([...expected].map((v) => v.toFixed(5)));
  });

  it('names the context rule in its model id, so a new context rule is a new model', () => {
    expect(WORD_VECTOR_RULE_ID).toBe(`r${WORD_VECTOR_RULE}-${CONTEXT_RULE_VERSION}`);
    const component = [0.6, 0.8, 0];
    const other = `r${WORD_VECTOR_RULE}-ctx-other`;
    expect(wordModelId(component)).toBe(wordModelId(component, WORD_VECTOR_RULE_ID));
    expect(wordModelId(component)).not.toBe(wordModelId(component, other));
    expect(wordModelId(null)).not.toBe(wordModelId(null, other));
  });

  it('finds the dominant direction as the first component', () => {
    const u = firstComponent([
      Float64Array.from([2, 0.1]),
      Float64Array.from([3, -0.1]),
      Float64Array.from([1, 0]),
    ]);
    expect(Math.abs(u![0]!)).toBeCloseTo(1, 2);
    expect(firstComponent([])).toBeNull();
  });
});
