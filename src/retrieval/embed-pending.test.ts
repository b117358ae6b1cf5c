import { describe, expect, it } from 'vitest';

import { l2Normalize } from '../core/ranking/cosine.js';
import { CONTEXT_RULE_VERSION, joinContext } from '../core/text/capture-context.js';
import { HashEmbedder } from '../embed/hash-embedder.js';
import {
  CONTEXT_LINE_WEIGHT,
  contextLines,
  MAX_CONTEXT_LINES,
  MEMORY_VECTOR_RULE,
  memoryVectors,
  sentenceVectorRule,
} from './embed-pending.js';

const embedder = new HashEmbedder();

async function vectorOf(text: string): Promise<Float32Array> {
  return (await embedder.embed([text]))[0]!;
}

describe('memoryVectors', () => {
  it('adds a vector for each line of the context to the content vector, renormalised', async () => {
    const context =
      'npm test failed: ECONNREFUSED in the upload worker\n\n  Retried with a longer timeout  ';
    const [mixed] = await memoryVectors(embedder, [
      { content: 'Fixed the flaky upload test', context },
    ]);
    const own = await vectorOf('Fixed the flaky upload test');
    const first = await vectorOf('npm test failed: ECONNREFUSED in the upload worker');
    const second = await vectorOf('Retried with a longer timeout');
    const expected = l2Normalize(
      Float64Array.from(own, (v, d) => v + CONTEXT_LINE_WEIGHT * (first[d]! + second[d]!)),
    );
    expect([...mixed!].map((v) => v.toFixed(6))).toEqual([...expected].map((v) => v.toFixed(6)));
  });

  it("weighs the context lines by the embedder's own contextLineWeight when it names one", async () => {
    const light = {
      model: embedder.model,
      dims: embedder.dims,
      contextLineWeight: 0.25,
      embed: (texts: readonly string[]) => embedder.embed(texts),
    };
    const [mixed] = await memoryVectors(light, [
      { content: 'Fixed the flaky upload test', context: 'npm test failed' },
    ]);
    const own = await vectorOf('Fixed the flaky upload test');
    const line = await vectorOf('npm test failed');
    const expected = l2Normalize(Float64Array.from(own, (v, d) => v + 0.25 * line[d]!));
    expect([...mixed!].map((v) => v.toFixed(6))).toEqual([...expected].map((v) => v.toFixed(6)));
  });

  it('gives a memory without context its content vector as it is', async () => {
    const [alone] = await memoryVectors(embedder, [{ content: 'Use pnpm here', context: ' \n ' }]);
    expect([...alone!]).toEqual([...(await vectorOf('Use pnpm here'))]);
  });
});

describe('contextLines', () => {
  it('takes the neighbours of positions p2, p1 and n1, in order, and never the second one after', () => {
    expect(MAX_CONTEXT_LINES).toBe(3);
    expect(contextLines(joinContext(['p2', 'p1'], ['n1', 'n2']))).toEqual(['p2', 'p1', 'n1']);
    expect(contextLines(joinContext(['p1'], ['n1', 'n2']))).toEqual(['p1', 'n1']);
    expect(contextLines(joinContext([], [' n1 ']))).toEqual(['n1']);
    expect(contextLines(joinContext(['p2', 'p1'], []))).toEqual(['p2', 'p1']);
    expect(contextLines('')).toEqual([]);
  });

  it('builds a memory vector from p2, p1 and n1, and not from n2', async () => {
    const context = joinContext(['second before', 'first before'], ['first after', 'second after']);
    const [mixed] = await memoryVectors(embedder, [{ content: 'the turn itself', context }]);
    const own = await vectorOf('the turn itself');
    const near = await embedder.embed(['second before', 'first before', 'first after']);
    const expected = l2Normalize(
      Float64Array.from(
        own,
        (v, d) => v + CONTEXT_LINE_WEIGHT * near.reduce((s, l) => s + l[d]!, 0),
      ),
    );
    expect([...mixed!].map((v) => v.toFixed(6))).toEqual([...expected].map((v) => v.toFixed(6)));
    const [withoutSecondAfter] = await memoryVectors(embedder, [
      {
        content: 'the turn itself',
        context: joinContext(['second before', 'first before'], ['first after']),
      },
    ]);
    expect([...mixed!]).toEqual([...withoutSecondAfter!]);
  });
});

describe('sentenceVectorRule', () => {
  it('names the context rule, the line weight and the line cap, so a change of any renews the vectors', () => {
    const rule = sentenceVectorRule(embedder);
    expect(rule).toBe(
      `r${MEMORY_VECTOR_RULE}-w${CONTEXT_LINE_WEIGHT}-l${MAX_CONTEXT_LINES}-${CONTEXT_RULE_VERSION}`,
    );
    expect(rule).toContain('ctx-lines-b2a2-600');
    const halfWeight = Object.assign(new HashEmbedder(), { contextLineWeight: 0.5 });
    expect(sentenceVectorRule(halfWeight)).not.toBe(rule);
  });
});
