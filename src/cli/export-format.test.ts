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

describe('parseExport', () => {
  it('parses every line of an export, ignoring blank lines and CRLF endings', () => {
    const lines = parseExport(text(toExportLine(sample).trimEnd() + '\r', '', withId(ID2)), 'f');
    expect(lines.map((l) => [l.line, l.record.id])).toEqual([
      [1, sample.id],
      [3, ID2],
    ]);
    expect(lines[0]?.record).toEqual(sample);
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

  it('refuses invalid UTF-8 on the line where it occurs', () => {
    const bytes = Buffer.concat([Buffer.from(`${withId(ID2)}\n`), Buffer.from([0x22, 0xff, 0x22])]);
    expect(invalid(bytes)).toMatch(/line 2: not valid UTF-8/);
  });
});

describe('importLines', () => {
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
