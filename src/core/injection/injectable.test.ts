import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { OTHER_PROJECT, PROJECT, testMemory } from '../../../test/helpers/test-memory.js';
import { TRUST_ORDER } from '../origin/origin-class.js';
import {
  injectableOrigins,
  inSessionScope,
  mayInject,
  toRenderItem,
  withheldReasons,
} from './injectable.js';

const target = { projectKey: PROJECT, alreadyInjected: new Set<string>() };

describe('injectableOrigins', () => {
  it('lists the user and the untainted agent only, and widens to local origins only on opt-in', () => {
    expect(injectableOrigins()).toEqual(['user', 'agent']);
    expect(injectableOrigins({ proactiveLocal: true })).toEqual([
      'user',
      'agent',
      'local_edit',
      'local_read',
      'local_exec',
    ]);
  });
});

describe('inSessionScope (R4)', () => {
  it('admits this project and global memories, never another project or an empty key', () => {
    const a = { visibility: 'project' as const, projectKey: PROJECT };
    const b = { visibility: 'project' as const, projectKey: OTHER_PROJECT };
    const c = { visibility: 'global' as const, projectKey: OTHER_PROJECT };
    const d = { visibility: 'project' as const, projectKey: '' };
    expect([a, b, c, d].map((m) => inSessionScope(m, PROJECT))).toEqual([true, false, true, false]);
    expect([a, b, c, d].map((m) => inSessionScope(m, null))).toEqual([false, false, true, false]);
    expect(inSessionScope(d, '')).toBe(false);
  });
});

describe('withheldReasons', () => {
  it('lets a reviewed user or agent memory of this project through', () => {
    expect(withheldReasons(testMemory({ origin: 'user' }), target)).toEqual([]);
    expect(
      withheldReasons(testMemory({ origin: 'agent', quarantine: 'approved' }), target),
    ).toEqual([]);
  });

  it('withholds untrusted, local and unknown origins, an approved network memory included', () => {
    for (const origin of TRUST_ORDER.filter((o) => o !== 'user' && o !== 'agent')) {
      expect(withheldReasons(testMemory({ origin }), target), origin).toContain(
        'origin_not_allowlisted',
      );
    }
    for (const origin of ['', 'User', 'mcp:fetch', 'network ']) {
      expect(mayInject(testMemory({ origin }), target), JSON.stringify(origin)).toBe(false);
    }
    expect(
      withheldReasons(testMemory({ origin: 'network', quarantine: 'approved' }), target),
    ).toEqual(['origin_not_allowlisted']);
  });

  it('withholds tainted, quarantined, rejected, superseded, out-of-scope and already injected ones', () => {
    const injected = testMemory();
    const cases = [
      [testMemory({ tainted: true }), 'tainted'],
      [testMemory({ quarantine: 'pending' }), 'quarantine_pending'],
      [testMemory({ quarantine: 'rejected' }), 'quarantine_rejected'],
      [testMemory({ supersededBy: '01JFX999999999999999999999' }), 'superseded'],
      [testMemory({ projectKey: OTHER_PROJECT }), 'out_of_scope'],
      [injected, 'already_injected'],
    ] as const;
    const session = { ...target, alreadyInjected: new Set([injected.id]) };
    for (const [memory, reason] of cases) {
      expect(withheldReasons(memory, session)).toEqual([reason]);
    }
  });

  it('decides the same whatever the content says (property)', () => {
    const memories = [
      testMemory({ origin: 'network' }),
      testMemory({ origin: 'user' }),
      testMemory({ origin: 'agent', tainted: true }),
    ];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...memories), (content, memory) => {
        const reference = withheldReasons(memory, target);
        expect(withheldReasons({ ...memory, content }, target)).toEqual(reference);
      }),
    );
  });
});

describe('staleness in the gate (R5)', () => {
  const gone = { status: 'gone' as const, anchors: [], label: 'cites a.ts, deleted' };
  const stale = { status: 'stale' as const, anchors: [], label: 'cites a.ts, changed' };

  it('withholds only a memory whose every cited file was deleted', () => {
    const memory = testMemory({ origin: 'user' });
    const staleness = new Map([[memory.id, gone]]);
    expect(withheldReasons(memory, { ...target, staleness })).toEqual(['cited_files_deleted']);
    for (const status of ['stale', 'fresh', 'pending', 'unanchored', 'unchecked'] as const) {
      const map = new Map([[memory.id, { status, anchors: [] }]]);
      expect(withheldReasons(memory, { ...target, staleness: map })).toEqual([]);
    }
  });

  it('labels a stale or gone memory with its note, and nothing else', () => {
    const memory = testMemory({ origin: 'user' });
    expect(toRenderItem(memory, stale)).toMatchObject({
      flags: ['stale'],
      note: 'cites a.ts, changed',
    });
    expect(toRenderItem(memory, gone)).toMatchObject({
      flags: ['stale'],
      note: 'cites a.ts, deleted',
    });
    const fresh = toRenderItem(memory, { status: 'fresh', anchors: [] });
    expect(fresh.flags).toEqual([]);
    expect(fresh).not.toHaveProperty('note');
  });
});

describe('toRenderItem', () => {
  it('labels pinned and global memories and keeps id, kind, origin and date', () => {
    const memory = testMemory({ pinned: true, visibility: 'global', kind: 'preference' });
    expect(toRenderItem(memory)).toEqual({
      id: memory.id,
      content: memory.content,
      origin: 'user',
      createdAt: memory.createdAt,
      kind: 'preference',
      flags: ['pinned', 'global'],
    });
    expect(toRenderItem(testMemory()).flags).toEqual([]);
  });

  it('redacts a secret in a row stored before redaction existed (R7)', () => {
    const key = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    const item = toRenderItem(testMemory({ content: `deploy token ${key} lives in CI` }));
    expect(item.content).not.toContain(key);
    expect(item.content).toContain('[REDACTED:github_token]');
  });
});
