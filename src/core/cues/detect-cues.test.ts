import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CUE_KINDS, detectCues, MAX_CUE_SCAN_CHARS, NO_CUES } from './detect-cues.js';

describe('detectCues', () => {
  it.each([
    ['error', 'Error: cannot find module ./x.js'],
    ['error', 'Traceback (most recent call last):\n  File "a.py", line 1'],
    ['error', 'TypeError: x is not a function\n    at run (/app/a.js:1:2)'],
    ['error', 'spawn git ENOENT'],
    ['error', 'La compilation a échoué: erreur de syntaxe'],
    ['error', 'Fehler beim Laden der Datei'],
    ['error', '构建失败：发生错误'],
    ['error', 'ビルドでエラーが発生しました'],
    ['decision', 'Decision: we use pnpm, not npm.'],
    ['decision', 'We decided to drop Node 18.'],
    ['decision', 'Nous avons décidé de garder SQLite.'],
    ['decision', 'Decidimos usar PostgreSQL.'],
    ['decision', 'Wir haben entschieden, Vitest zu nutzen.'],
    ['decision', '我们决定使用 pnpm'],
    ['important', 'IMPORTANT: always run the linter'],
    ['important', 'This is critical for the release'],
    ['important', 'ＩＭＰＯＲＴＡＮＴ: fullwidth shout'],
    ['important', 'Das ist wichtig.'],
    ['important', '这很重要'],
  ] as const)('detects %s in %j', (kind, text) => {
    expect(detectCues(text)).toContain(kind);
  });

  it.each([
    'The terror of deadlines',
    'every example is fine',
    'Decidedly ordinary prose about a décidément nice day',
    'A plain note about the build cache.',
    '',
  ])('finds no cue in the twin %j', (text) => {
    expect(detectCues(text)).toEqual([]);
  });

  it('reports each kind once, in vocabulary order', () => {
    expect(detectCues('IMPORTANT decision after an error; error; decided')).toEqual([
      'error',
      'decision',
      'important',
    ]);
  });

  it('reports nothing when detectors are switched off', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(detectCues(`Error! Decision: IMPORTANT ${text}`, { detectors: 'off' })).toBe(
          NO_CUES,
        );
      }),
    );
  });

  it('returns only known kinds for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        for (const kind of detectCues(text)) expect(CUE_KINDS).toContain(kind);
      }),
    );
  });

  it('ignores cues beyond the scan cap', () => {
    const text = `${'a '.repeat(MAX_CUE_SCAN_CHARS)}IMPORTANT error decided`;
    expect(detectCues(text)).toEqual([]);
  });

  it('completes on a 5 MB input and a long newline run (W9)', () => {
    expect(detectCues(`${'x'.repeat(5 * 1024 * 1024)} error`)).toEqual([]);
    expect(detectCues(`${'\n'.repeat(1_000_000)}at`)).toEqual([]);
    expect(detectCues(`${'\n '.repeat(500_000)}Error`)).toEqual([]);
    expect(detectCues(`Error${'\n'.repeat(1_000_000)}`)).toEqual(['error']);
  });
});
