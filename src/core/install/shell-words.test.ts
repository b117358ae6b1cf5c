import { spawnSync } from 'node:child_process';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isMemoryError } from '../errors.js';
import { shellQuote, splitCommandLine } from './shell-words.js';

/** The words `sh` sees for `line`: each printed on its own NUL-terminated record. */
function shWords(line: string): string[] {
  const result = spawnSync('sh', ['-c', `for w in ${line}; do printf '%s\\0' "$w"; done`], {
    encoding: 'utf8',
  });
  return result.stdout.split('\0').slice(0, -1);
}

// Any text an argv can carry: no NUL, no lone surrogate.
const word = fc
  .string({ minLength: 1, maxLength: 12, unit: 'binary' })
  .filter((s) => !s.includes('\0') && !/\p{Cs}/u.test(s));

describe('shellQuote', () => {
  it('leaves safe words bare and quotes the rest', () => {
    expect(shellQuote('/usr/local/bin/node')).toBe('/usr/local/bin/node');
    expect(shellQuote('/Users/Jo Smith/main.js')).toBe("'/Users/Jo Smith/main.js'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });

  it('gives sh back exactly the words it was given', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), (words) => {
        expect(shWords(words.map(shellQuote).join(' '))).toEqual(words);
      }),
      { numRuns: 60 },
    );
  });
});

describe('splitCommandLine', () => {
  it('splits plain words, quotes and escapes like sh', () => {
    expect(splitCommandLine('  mnemo  ')).toEqual(['mnemo']);
    expect(splitCommandLine(`'/opt/my tools/mnemo' --x "a \\"b\\"" c\\ d`)).toEqual([
      '/opt/my tools/mnemo',
      '--x',
      'a "b"',
      'c d',
    ]);
  });

  it('inverts shellQuote', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        expect(splitCommandLine(words.map(shellQuote).join(' '))).toEqual(words);
      }),
    );
  });

  it.each([
    'mnemo; rm -rf ~',
    'mnemo | tee x',
    '$HOME/bin/mnemo',
    'mnemo `id`',
    'mne*',
    '"$X"',
    '',
    "'open",
  ])('refuses %j', (line) => {
    let error: unknown;
    try {
      splitCommandLine(line);
    } catch (caught) {
      error = caught;
    }
    expect(isMemoryError(error, 'INVALID_INPUT')).toBe(true);
  });
});
