import { Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../core/errors.js';
import { decodeUtf8, readAllBytes } from './cli-io.js';
import { parseLimit } from './options.js';

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 and drops a leading byte-order mark', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFGrüße 🚀'), 'stdin')).toBe('Grüße 🚀');
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s with INVALID_INPUT naming the source', (_name, bytes) => {
    try {
      decodeUtf8(Uint8Array.from(bytes), 'notes.txt');
      expect.unreachable();
    } catch (error) {
      expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toMatch(/^notes\.txt is not valid UTF-8\. Convert it first/);
    }
  });
});

describe('readAllBytes', () => {
  it('joins binary and string chunks without decoding them', async () => {
    const bytes = await readAllBytes(
      Readable.from([Buffer.from([0xff]), 'ok', Buffer.from([0x00])]),
    );
    expect([...bytes]).toEqual([0xff, 0x6f, 0x6b, 0x00]);
  });
});

describe('parseLimit', () => {
  it('accepts whole numbers from 1 to 1000', () => {
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit(' 1000 ')).toBe(1000);
  });

  it.each(['0', '1001', '-1', '2.5', 'abc', '', '1e2', '0x10'])('refuses %j', (value) => {
    expect(() => parseLimit(value)).toThrow(/Give a whole number from 1 to 1000/);
  });
});
