/**
 * A folded copy of a text, used only to *find* frame-marker look-alikes; the original text is what gets
 * rendered. Each UTF-16 unit of the copy remembers the span of the original it came from, so a match on
 * the copy maps back onto the exact original characters to replace.
 */

/** Invisible or formatting characters an attacker can slip between the letters of a marker. */
const IGNORABLE = /^[\p{Cf}\p{Cc}\p{M}\p{Zs}\p{Zl}\p{Zp}\s\u115F\u1160\u2800\u3164\uFFA0]$/u;

/**
 * Look-alikes NFKC leaves alone but a reader sees as the marker's characters: angle quotes and
 * brackets, dashes, and the Cyrillic and Greek letters drawn like the Latin ones in `mnemo-recall`,
 * `end` and `nonce`. Capitals are listed apart from small letters because case changes the look
 * (Greek `Ν` is an N, its small `ν` a v).
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  '‹': '<',
  '«': '<',
  '〈': '<',
  '⟨': '<',
  '《': '<',
  '❮': '<',
  '❬': '<',
  '⟪': '<',
  '›': '>',
  '»': '>',
  '〉': '>',
  '⟩': '>',
  '》': '>',
  '❯': '>',
  '❭': '>',
  '⟫': '>',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  А: 'a',
  С: 'c',
  Е: 'e',
  М: 'm',
  О: 'o',
  Р: 'p',
  Т: 't',
  Х: 'x',
  Α: 'a',
  Ε: 'e',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Χ: 'x',
  а: 'a',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ӏ: 'l',
  м: 'm',
  о: 'o',
  р: 'p',
  ѕ: 's',
  х: 'x',
  у: 'y',
  α: 'a',
  ε: 'e',
  ι: 'i',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
};

export interface DetectionCopy {
  /** NFKC per code point, lower-cased, confusables folded, invisible characters and whitespace removed. */
  text: string;
  /** For each UTF-16 unit of `text`, the original index where its source code point starts. */
  starts: number[];
  /** For each UTF-16 unit of `text`, the original index just after its source code point. */
  ends: number[];
}

/**
 * Builds the detection copy. Whitespace is removed rather than collapsed so that `< < < e n d` and
 * `mnemo - recall` fold to the same string as the real marker; the patterns matched on the copy are
 * specific enough that joining words does not create false hits in ordinary prose.
 */
export function buildDetectionCopy(original: string): DetectionCopy {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  for (const char of original) {
    const end = index + char.length;
    // Per code point, not per string: whole-string NFKC composes across characters (`<` + U+0338 → `≮`),
    // which would hide a bracket from the patterns and lose the index mapping.
    for (const compatible of char.normalize('NFKC')) {
      for (const lower of (CONFUSABLES[compatible] ?? compatible).toLowerCase()) {
        if (IGNORABLE.test(lower)) continue;
        const mapped = CONFUSABLES[lower] ?? lower;
        text += mapped;
        for (let unit = 0; unit < mapped.length; unit += 1) {
          starts.push(index);
          ends.push(end);
        }
      }
    }
    index = end;
  }
  return { text, starts, ends };
}
