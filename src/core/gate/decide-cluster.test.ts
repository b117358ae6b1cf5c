import { describe, expect, it } from 'vitest';

import {
  CLUSTER_REASON,
  clusterIdFor,
  decideCluster,
  type Fragment,
  fragmentSource,
} from './decide-cluster.js';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
let seq = 0;

function fragment(minutes: number, fields: Partial<Fragment> = {}): Fragment {
  seq += 1;
  return {
    id: `01J0000000000000000000${String(seq).padStart(4, '0')}`,
    createdAtMs: T0 + minutes * 60_000,
    sessionId: 's1',
    originTool: 'WebFetch',
    sourceUrl: 'https://evil.example/page',
    directive: true,
    clusterId: null,
    ...fields,
  };
}

describe('decideCluster', () => {
  it('does not cluster 2 directive fragments from one host', () => {
    expect(decideCluster(fragment(1), [fragment(0)])).toEqual({ cluster: false });
  });

  it('clusters 3 directive fragments from one host within 10 minutes, id from the oldest member', () => {
    const a = fragment(0);
    const b = fragment(4);
    const c = fragment(10);
    const decision = decideCluster(c, [b, a]);
    expect(decision).toEqual({
      cluster: true,
      clusterId: clusterIdFor(a.id),
      memberIds: [a.id, b.id, c.id],
      source: { kind: 'host', host: 'evil.example' },
      reason: CLUSTER_REASON,
    });
  });

  it('does not cluster 3 fragments spread over 11 minutes', () => {
    expect(decideCluster(fragment(11), [fragment(0), fragment(5.5)])).toEqual({ cluster: false });
  });

  it('does not cluster directive fragments from other hosts, even in one session', () => {
    const other = (m: number, host: string) => fragment(m, { sourceUrl: `https://${host}/p` });
    expect(
      decideCluster(other(2, 'c.example'), [other(0, 'a.example'), other(1, 'b.example')]),
    ).toEqual({ cluster: false });
    // A subdomain is another host.
    expect(
      decideCluster(other(2, 'evil.example'), [other(0, 'docs.evil.example'), fragment(1)]),
    ).toEqual({ cluster: false });
  });

  it('does not cluster fragments that are not directive-shaped', () => {
    const plain = (m: number) => fragment(m, { directive: false });
    expect(decideCluster(plain(2), [plain(0), plain(1)])).toEqual({ cluster: false });
    expect(decideCluster(fragment(2), [plain(0), fragment(1)])).toEqual({ cluster: false });
  });

  it('without a host, clusters by session and tool only', () => {
    const bare = (m: number, fields: Partial<Fragment> = {}) =>
      fragment(m, { sourceUrl: null, ...fields });
    const decision = decideCluster(bare(2), [bare(0), bare(1)]);
    expect(decision).toMatchObject({
      cluster: true,
      source: { kind: 'session_tool', sessionId: 's1', tool: 'WebFetch' },
    });
    expect(decideCluster(bare(2), [bare(0, { sessionId: 's2' }), bare(1)])).toEqual({
      cluster: false,
    });
    expect(decideCluster(bare(2), [bare(0, { originTool: 'WebSearch' }), bare(1)])).toEqual({
      cluster: false,
    });
    // A fragment with a host is not the same source as one without.
    expect(decideCluster(bare(2), [fragment(0), bare(1)])).toEqual({ cluster: false });
  });

  it('keeps the id of the cluster a fragment joins', () => {
    const a = fragment(0, { clusterId: 'cluster-OLD' });
    const decision = decideCluster(fragment(3), [a, fragment(2)]);
    expect(decision).toMatchObject({ cluster: true, clusterId: 'cluster-OLD' });
  });

  it('takes the source from channel facts: host lower-cased, never text', () => {
    expect(
      fragmentSource({ sessionId: null, originTool: null, sourceUrl: 'https://EVIL.example/x' }),
    ).toEqual({
      kind: 'host',
      host: 'evil.example',
    });
  });
});
