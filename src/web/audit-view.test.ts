import { describe, expect, it } from 'vitest';

import type { AuditEntry } from '../store/store.js';
import { auditRows } from './audit-view.js';

let seq = 0;
function entry(action: string, detail: Record<string, unknown>, at: string): AuditEntry {
  seq += 1;
  return { seq, at, action, memoryId: '01JD5Y8Q3X9V7M2K4N6P8R0T2W', detail, hash: `h${seq}` };
}

describe('auditRows (the viewer audit table)', () => {
  it('names each action in words, takes the actor out of the details and shows values as text', () => {
    const rows = auditRows([
      entry(
        'remember',
        { origin: 'network', tags: ['a', 'b'], redactions: 0 },
        '2026-01-01T00:00:00Z',
      ),
      entry(
        'quarantine',
        { actor: 'web-ui:alice', from: 'pending', to: 'approved' },
        '2026-01-02T00:00:00Z',
      ),
      entry(
        'update',
        { fields: ['content'], previous: null, detail: { n: 1 } },
        '2026-01-03T00:00:00Z',
      ),
      entry('brand-new-action', { actor: 42 }, '2026-01-04T00:00:00Z'),
    ]);
    expect(rows.map((r) => [r.action, r.label, r.actor])).toEqual([
      ['remember', 'written', null],
      ['quarantine', 'review decision', 'web-ui:alice'],
      ['update', 'edited', null],
      // An unknown action keeps its own name; an actor that is no string is no actor.
      ['brand-new-action', 'brand-new-action', null],
    ]);
    expect(rows[0]?.details).toEqual([
      { name: 'origin', value: 'network' },
      { name: 'tags', value: 'a, b' },
      { name: 'redactions', value: '0' },
    ]);
    expect(rows[1]?.details).toEqual([
      { name: 'from', value: 'pending' },
      { name: 'to', value: 'approved' },
    ]);
    expect(rows[2]?.details).toEqual([
      { name: 'fields', value: 'content' },
      { name: 'previous', value: '–' },
      { name: 'detail', value: '{"n":1}' },
    ]);
    expect(rows[3]?.details).toEqual([]);
    expect(rows.every((r) => r.times === 1 && r.lastAt === r.at)).toBe(true);
  });

  it('folds a run of identical consecutive entries into one row with its count and last time', () => {
    const vector = { model: 'm', dims: 384 };
    const rows = auditRows([
      entry('remember', { origin: 'user' }, '2026-01-01T00:00:00Z'),
      entry('set-vector', vector, '2026-01-01T00:01:00Z'),
      entry('set-vector', vector, '2026-01-01T00:02:00Z'),
      entry('set-vector', vector, '2026-01-01T00:03:00Z'),
      entry('set-vector', { model: 'other', dims: 384 }, '2026-01-01T00:04:00Z'),
      entry('update', { fields: ['tags'] }, '2026-01-01T00:05:00Z'),
      entry('set-vector', vector, '2026-01-01T00:06:00Z'),
    ]);
    expect(rows.map((r) => [r.label, r.times, r.at, r.lastAt])).toEqual([
      ['written', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['vector stored', 3, '2026-01-01T00:01:00Z', '2026-01-01T00:03:00Z'],
      // Another model is another row; a run broken by another entry starts again.
      ['vector stored', 1, '2026-01-01T00:04:00Z', '2026-01-01T00:04:00Z'],
      ['edited', 1, '2026-01-01T00:05:00Z', '2026-01-01T00:05:00Z'],
      ['vector stored', 1, '2026-01-01T00:06:00Z', '2026-01-01T00:06:00Z'],
    ]);
    // The folded row keeps the first entry's seq and hash, so it still points into the chain.
    expect(rows[1]?.seq).toBe((rows[0]?.seq ?? 0) + 1);
  });

  it('never folds two decisions by different actors', () => {
    const rows = auditRows([
      entry(
        'quarantine',
        { actor: 'cli:alice', from: 'pending', to: 'approved' },
        '2026-01-01T00:00:00Z',
      ),
      entry(
        'quarantine',
        { actor: 'cli:bob', from: 'pending', to: 'approved' },
        '2026-01-01T00:01:00Z',
      ),
    ]);
    expect(rows.map((r) => [r.actor, r.times])).toEqual([
      ['cli:alice', 1],
      ['cli:bob', 1],
    ]);
  });

  it('is empty for an empty trail', () => {
    expect(auditRows([])).toEqual([]);
  });
});
