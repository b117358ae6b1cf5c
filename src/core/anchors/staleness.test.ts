import { describe, expect, it } from 'vitest';

import { demoteStale } from '../ranking/stale-rank.js';
import type { AnchorSet, AnchorVerdict, FileAnchor } from './anchor.js';
import { candidateSymbols, symbolsIn } from './cited-symbols.js';
import {
  describeVerdict,
  memoryStaleness,
  STALE_RANK_FACTOR,
  staleLabel,
  staleRankFactor,
} from './staleness.js';

function file(path: string): FileAnchor {
  return {
    kind: 'file',
    path,
    citedAs: null,
    blobId: 'b'.repeat(40),
    size: 1,
    commit: null,
    source: 'worktree',
    symbols: [],
  };
}

function set(...paths: string[]): AnchorSet {
  return {
    memoryId: 'M',
    how: 'write',
    resolvedAt: '2025-01-01T00:00:00.000Z',
    anchors: [...paths.map(file), { kind: 'mention', path: 'never/there.ts', why: 'missing' }],
    checks: [],
  };
}

const verdicts = (entries: Record<string, AnchorVerdict>) => new Map(Object.entries(entries));

describe('memoryStaleness', () => {
  it('is pending without a set and unanchored with only mentions', () => {
    expect(memoryStaleness(undefined, new Map()).status).toBe('pending');
    expect(memoryStaleness(set(), new Map())).toEqual({ status: 'unanchored', anchors: [] });
  });

  it('is fresh when every file is fresh, and unknown verdicts never make it stale', () => {
    const result = memoryStaleness(
      set('a.ts', 'b.ts'),
      verdicts({ 'a.ts': { state: 'fresh' }, 'b.ts': { state: 'unknown', note: 'budget' } }),
    );
    expect(result.status).toBe('fresh');
    expect(result.label).toBeUndefined();
  });

  it('is gone only when every file anchor was deleted; missing never counts as deleted', () => {
    expect(
      memoryStaleness(
        set('a.ts', 'b.ts'),
        verdicts({ 'a.ts': { state: 'deleted' }, 'b.ts': { state: 'deleted' } }),
      ).status,
    ).toBe('gone');
    expect(
      memoryStaleness(
        set('a.ts', 'b.ts'),
        verdicts({ 'a.ts': { state: 'deleted' }, 'b.ts': { state: 'missing' } }),
      ).status,
    ).toBe('stale');
    expect(
      memoryStaleness(
        set('a.ts', 'b.ts'),
        verdicts({ 'a.ts': { state: 'deleted' }, 'b.ts': { state: 'fresh' } }),
      ),
    ).toMatchObject({ status: 'stale', label: 'cites a.ts, deleted since it was written' });
  });
});

describe('staleLabel and describeVerdict', () => {
  it.each<[AnchorVerdict, string]>([
    [{ state: 'changed', commitsAgo: 4 }, 'changed 4 commits ago'],
    [{ state: 'changed', commitsAgo: 1 }, 'changed in the last commit'],
    [{ state: 'changed', uncommitted: true }, 'changed (not committed)'],
    [{ state: 'changed' }, 'changed since it was written'],
    [
      { state: 'changed', commitsAgo: 2, missingSymbols: ['openPool', 'Pool'] },
      'changed 2 commits ago; openPool, Pool no longer in it',
    ],
    [
      { state: 'renamed', renamedTo: 'src/b.ts', commitsAgo: 3 },
      'renamed to src/b.ts 3 commits ago',
    ],
    [{ state: 'renamed' }, 'renamed to another path since it was written'],
    [{ state: 'deleted', uncommitted: true }, 'deleted (not committed)'],
    [{ state: 'missing' }, 'missing from the working tree'],
  ])('describes %j as %j', (verdict, text) => {
    expect(describeVerdict(verdict)).toBe(text);
  });

  it('names the first stale file and counts the others', () => {
    const stale = [
      { path: 'src/db.ts', verdict: { state: 'changed' as const, commitsAgo: 4 } },
      { path: 'src/a.ts', verdict: { state: 'deleted' as const } },
      { path: 'src/b.ts', verdict: { state: 'missing' as const } },
    ];
    expect(staleLabel(stale)).toBe('cites src/db.ts, changed 4 commits ago (+2 more files)');
    expect(staleLabel(stale.slice(0, 2))).toBe(
      'cites src/db.ts, changed 4 commits ago (+1 more file)',
    );
  });
});

describe('demoteStale', () => {
  const hit = (id: string, score: number) => ({ score, memory: { id } });

  it('multiplies only stale hits by the bounded factor, re-sorts stably and drops none', () => {
    const stale = { status: 'stale' as const, anchors: [] };
    const gone = { status: 'gone' as const, anchors: [] };
    const hits = [hit('a', 1 / 11), hit('b', 1 / 12), hit('c', 1 / 14), hit('d', 1 / 15)];
    const ranked = demoteStale(hits, (id) => (id === 'a' ? stale : id === 'd' ? gone : undefined));
    expect(ranked.map((h) => h.memory.id)).toEqual(['b', 'a', 'c', 'd']);
    expect(ranked.find((h) => h.memory.id === 'a')).toMatchObject({
      score: (1 / 11) * STALE_RANK_FACTOR,
      staleFactor: STALE_RANK_FACTOR,
    });
    expect(ranked.find((h) => h.memory.id === 'b')?.staleFactor).toBe(1);
    expect(
      demoteStale([hit('x', 1), hit('y', 1)], () => undefined).map((h) => h.memory.id),
    ).toEqual(['x', 'y']);
  });

  it('bounds the factor to one fixed value for stale and gone, and 1 otherwise', () => {
    for (const status of ['pending', 'unanchored', 'fresh', 'unchecked'] as const) {
      expect(staleRankFactor({ status, anchors: [] })).toBe(1);
    }
    expect(staleRankFactor({ status: 'stale', anchors: [] })).toBe(STALE_RANK_FACTOR);
    expect(STALE_RANK_FACTOR).toBeGreaterThan(0.5);
    expect(STALE_RANK_FACTOR).toBeLessThan(1);
  });
});

describe('candidateSymbols and symbolsIn', () => {
  it('takes code-shaped tokens, never plain words or path parts', () => {
    expect(
      candidateSymbols(
        'Decision: call openPool() from src/db.ts; set MAX_POOL and injection.sessionStartTokens, see README e.g. Config.',
      ),
    ).toEqual(['openPool', 'MAX_POOL', 'injection.sessionStartTokens', 'sessionStartTokens']);
  });

  it('keeps the candidates the text holds as whole words', () => {
    const text = 'export function openPool() {}\nconst openPoolSize = 1;\n';
    expect(symbolsIn(text, ['openPool', 'Pool', 'closePool'])).toEqual(['openPool']);
  });
});
