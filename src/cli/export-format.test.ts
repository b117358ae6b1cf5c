import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { type App, openApp } from '../app/open-app.js';
import { isMemoryError } from '../core/errors.js';
import type { ExportedMemory } from '../store/store.js';
import { importLines, parseExport, toExportLine } from './export-format.js';

const tempDir = useTempDirs();
let app: App;
let sample: ExportedMemory;

beforeEach(async () => {
  app = await openApp({ env: { MNEMO_HOME: tempDir() } });
  await app.store.remember({ content: 'sample memory', projectKey: '/p', tags: ['a'] });
  for await (const record of app.store.exportMemories()) sample = record;
});
afterEach(async () => {
  await app.close();
});

function text(...lines: string[]): Buffer {
  return Buffer.from(lines.join('\n'));
}

function withId(id: string, patch: Partial<ExportedMemory> = {}): string {
  return JSON.stringify({ ...sample, id, ...patch });
}

function invalid(bytes: Uint8Array): string {
  try {
    parseExport(bytes, 'dump.jsonl');
  } catch (error) {
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected INVALID_INPUT');
}

const ID2 = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const V1_FIXTURES = fileURLToPath(new URL('../../test/fixtures/sqlite/', import.meta.url));

describe('parseExport', () => {
  it('parses every line of an export, ignoring blank lines and CRLF endings', () => {
    const lines = parseExport(text(toExportLine(sample).trimEnd() + '\r', '', withId(ID2)), 'f');
    expect(lines.map((l) => [l.line, l.record.id])).toEqual([
      [1, sample.id],
      [3, ID2],
    ]);
    expect(lines[0]?.record).toEqual(sample);
  });

  it('reads anchors when a line has them, pending (null) when an older export does not, and refuses bad ones', () => {
    const anchors = {
      how: 'write',
      resolvedAt: '2025-01-01T00:00:00.000Z',
      anchors: [{ kind: 'mention', path: 'scripts/pg.sh', why: 'missing' }],
    };
    const { anchors: _none, ...older } = sample;
    const lines = parseExport(
      text(withId(ID2, { anchors } as Partial<ExportedMemory>), JSON.stringify(older)),
      'f',
    );
    expect(lines.map((l) => l.record.anchors)).toEqual([anchors, null]);
    const climbing = {
      ...anchors,
      anchors: [{ kind: 'mention', path: '../x.ts', why: 'missing' }],
    };
    expect(invalid(text(withId(ID2, { anchors: climbing } as Partial<ExportedMemory>)))).toContain(
      'not project-relative',
    );
  });

  it('accepts an empty file', () => {
    expect(parseExport(Buffer.alloc(0), 'f')).toEqual([]);
  });

  it('lists every bad line, up to five, and says nothing was imported', () => {
    const message = invalid(
      text('x1', 'x2', toExportLine(sample).trimEnd(), 'x4', 'x5', 'x6', 'x7'),
    );
    expect(message).toMatch(
      /^dump\.jsonl has 6 invalid lines; nothing was imported:\n {2}line 1: not JSON/,
    );
    expect(message).toContain('line 6: not JSON');
    expect(message).not.toContain('line 7:');
    expect(message).toContain('… and 1 more');
    expect(message).toMatch(/Fix those lines .* and re-run the import\.$/);
  });

  it.each([
    ['a bad kind', { kind: 'rumour' }, /field "kind" Invalid option/],
    ['a missing field', { origin: undefined }, /field "origin"/],
    ['a non-ULID link', { supersedes: 'abc' }, /field "supersedes" must be a 26-character ULID/],
    ['a bad timestamp', { createdAt: 'yesterday' }, /field "createdAt"/],
    [
      'a NUL in content',
      { content: 'a\u0000b' },
      /field "content" Memory content contains a NUL byte/,
    ],
    ['unnormalised tags', { tags: ['B'] }, /field "tags" is not normalised/],
    ['a stale content hash', { contentHash: '0'.repeat(64) }, /field "contentHash" does not match/],
    [
      'a vector of the wrong size',
      { embeddingModel: 'm', vector: { model: 'm', dims: 3, values: [1] } },
      /field "vector"/,
    ],
    [
      'a model without a vector',
      { embeddingModel: 'm' },
      /field "embeddingModel" does not match the vector/,
    ],
  ])('refuses %s naming the field', (_name, patch, message) => {
    expect(invalid(text(withId(ID2, patch as Partial<ExportedMemory>)))).toMatch(message);
  });

  it.each([
    ['an unknown review state', { quarantine: 'maybe' }, /field "quarantine" Invalid option/],
    ['an unknown gate reason', { gateReason: 'because' }, /field "gateReason" Invalid option/],
    ['a negative redaction count', { redactions: -1 }, /field "redactions"/],
    ['a non-boolean taint', { tainted: 'yes' }, /field "tainted"/],
    [
      'a trust band above its origin',
      { origin: 'network', trustBand: 'high' },
      /field "trustBand" is not the trust band of its origin/,
    ],
  ])('refuses %s in a write-path field', (_name, patch, message) => {
    expect(invalid(text(withId(ID2, patch as Partial<ExportedMemory>)))).toMatch(message);
  });

  it('fills the write-path fields of a v1-era line as the v2 migration does', () => {
    const v1Era = (origin: string) => {
      const { trustBand, tainted, quarantine, redactions, gateReason, ...old } = sample;
      void [trustBand, tainted, quarantine, redactions, gateReason];
      return JSON.stringify({ ...old, id: ID2, origin });
    };
    const [local] = parseExport(text(v1Era('local_exec')), 'f');
    expect(local?.record).toMatchObject({
      origin: 'local_exec',
      trustBand: 'low',
      tainted: false,
      quarantine: 'none',
      redactions: 0,
      gateReason: 'legacy',
    });
    const [network] = parseExport(text(v1Era('network')), 'f');
    expect(network?.record).toMatchObject({ trustBand: 'untrusted', quarantine: 'pending' });
    const [outsider] = parseExport(text(v1Era('some-old-tool')), 'f');
    expect(outsider?.record).toMatchObject({ trustBand: 'untrusted', quarantine: 'pending' });
  });

  it('keeps the write-path fields of a v2 line as they are', () => {
    const line = withId(ID2, {
      origin: 'network',
      trustBand: 'untrusted',
      tainted: true,
      quarantine: 'approved',
      redactions: 3,
      gateReason: 'forced',
    });
    expect(parseExport(text(line), 'f')[0]?.record).toEqual(JSON.parse(line));
  });

  it('refuses invalid UTF-8 on the line where it occurs', () => {
    const bytes = Buffer.concat([Buffer.from(`${withId(ID2)}\n`), Buffer.from([0x22, 0xff, 0x22])]);
    expect(invalid(bytes)).toMatch(/line 2: not valid UTF-8/);
  });
});

describe('importLines', () => {
  it('imports a v1-era export into the same memories as migrating the v1 store in place', async () => {
    const manifest = JSON.parse(readFileSync(join(V1_FIXTURES, 'schema-v1.json'), 'utf8')) as {
      memories: Record<string, unknown>[];
    };
    const v1Export = manifest.memories.map((m) => JSON.stringify(m)).join('\n');
    const fresh = await openApp({ env: { MNEMO_HOME: tempDir() } });
    const home = tempDir();
    copyFileSync(join(V1_FIXTURES, 'schema-v1.db'), join(home, 'mnemo.db'));
    const migrated = await openApp({ env: { MNEMO_HOME: home } });
    try {
      const report = await importLines(fresh.store, parseExport(Buffer.from(v1Export), 'v1'));
      expect(report.imported).toBe(manifest.memories.length);
      const all = async (a: App) => {
        const out: ExportedMemory[] = [];
        for await (const record of a.store.exportMemories()) out.push(record);
        return out;
      };
      expect(migrated.store.schemaVersion).toBe(fresh.store.schemaVersion);
      expect(await all(fresh)).toEqual(await all(migrated));
    } finally {
      await fresh.close();
      await migrated.close();
    }
  });

  it('imports, skips ids already present, and reports each line', async () => {
    const report = await importLines(
      app.store,
      parseExport(text(toExportLine(sample).trimEnd()), 'f'),
    );
    expect(report).toMatchObject({ imported: 0, skipped: 1 });
    expect(report.results).toEqual([{ line: 1, id: sample.id, outcome: 'skipped' }]);
  });

  it('names the line and the progress when the store refuses a record', async () => {
    const other = { ...sample, id: ID2 };
    // Same content in the same project under another id: the store raises CONFLICT.
    const lines = parseExport(text(JSON.stringify(other)), 'f');
    const error: unknown = await importLines(app.store, lines).catch((e: unknown) => e);
    expect(isMemoryError(error, 'CONFLICT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^Line 1 \(01ARZ3NDEKTSV4RRFFQ69G5FAV\): .* 0 of 1 memories were imported before it; running the same import again skips those\.$/,
    );
  });
});
