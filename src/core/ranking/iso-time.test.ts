import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MS_PER_DAY, parseIsoTimestamp } from './iso-time.js';

// 0001-01-01 to 9999-12-31: the range `toISOString` writes with four-digit years.
const instant = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 });
// Any UTF-16 code unit (lone surrogates included), weighted towards the characters timestamps are made of.
const arbitraryText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'0123456789-:.,TZ+ '.split('')),
    fc.nat(0xffff).map((n) => String.fromCharCode(n)),
  ),
  maxLength: 40,
});

describe('parseIsoTimestamp', () => {
  it('reads back every instant that toISOString writes', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        expect(parseIsoTimestamp(new Date(ms).toISOString())).toBe(ms);
      }),
    );
  });

  it('agrees with Date.parse on timestamps with an explicit offset', () => {
    const offset = fc
      .tuple(
        fc.constantFrom('+', '-'),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
      )
      .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`);
    fc.assert(
      fc.property(instant, offset, (ms, zone) => {
        const text = new Date(ms).toISOString().replace('Z', zone);
        expect(parseIsoTimestamp(text)).toBe(Date.parse(text));
      }),
    );
  });

  it('reads the variants a hand-edited import may contain', () => {
    const t = Date.UTC(2024, 4, 1, 12, 30);
    expect(parseIsoTimestamp('2024-05-01T12:30:00.000Z')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01T12:30Z')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01 12:30:00Z')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01t12:30:00z')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01T14:30:00+0200')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01T14:30:00+02')).toBe(t);
    expect(parseIsoTimestamp('2024-05-01T12:30:00,5Z')).toBe(t + 500);
    expect(parseIsoTimestamp('2024-05-01T12:30:00.123456789Z')).toBe(t + 123);
    expect(parseIsoTimestamp('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
  });

  it('reads a timestamp without a zone as UTC', () => {
    expect(parseIsoTimestamp('2024-05-01T12:30:00')).toBe(Date.UTC(2024, 4, 1, 12, 30));
  });

  it('counts leap days', () => {
    expect(parseIsoTimestamp('2024-03-01')! - parseIsoTimestamp('2024-02-28')!).toBe(
      2 * MS_PER_DAY,
    );
    expect(parseIsoTimestamp('2023-03-01')! - parseIsoTimestamp('2023-02-28')!).toBe(MS_PER_DAY);
    expect(parseIsoTimestamp('2000-02-29')).toBe(Date.UTC(2000, 1, 29));
  });

  it('rejects text that is not a possible timestamp', () => {
    for (const text of [
      '',
      'yesterday',
      '2024-13-01',
      '2024-00-10',
      '2023-02-29',
      '1900-02-29',
      '2024-04-31',
      '2024-05-01T24:00:00Z',
      '2024-05-01T12:60:00Z',
      '2024-05-01T12:30:60Z',
      '2024-05-01T12:30:00+24:00',
      '2024-05-01T12:30:00+02:60',
      '2024-5-1',
      '2024-05-01T12',
      '2024-05-01T12:30:00ZZ',
      '+002024-05-01T12:30:00Z',
    ]) {
      expect(parseIsoTimestamp(text), text).toBeUndefined();
    }
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(arbitraryText, (text) => {
        const value = parseIsoTimestamp(text);
        expect(value === undefined || Number.isFinite(value)).toBe(true);
      }),
    );
  });
});

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
