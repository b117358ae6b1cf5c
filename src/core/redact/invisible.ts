/**
 * Invisible-Unicode stripping. Tag characters, bidi controls and zero-width characters render as nothing but
 * reach the model intact, which makes them a channel for hidden instructions ("ASCII smuggling") and a way to
 * split a secret so no pattern sees it. Stored text loses them; the only exception is a zero-width joiner
 * inside an emoji sequence, where it carries meaning and no hidden payload.
 */

/**
 * Code points removed by {@link stripInvisible}:
 * - U+E0000–U+E007F tag characters and U+E0100–U+E01EF supplementary variation selectors (both can encode
 *   arbitrary ASCII invisibly);
 * - bidi controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 ("Trojan Source");
 * - zero-width and invisible formatting: U+00AD, U+034F, U+115F, U+1160, U+17B4, U+17B5, U+180B–U+180F,
 *   U+200B–U+200D, U+2060–U+2064, U+3164, U+FEFF, U+FFA0, U+FFF9–U+FFFB, U+1D173–U+1D17A.
 */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- escaped code points listed singly, on purpose
  /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B\u200C\u2060-\u2064\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}]/gu;

// A ZWJ is kept only between two pictographs (an optional VS16 may follow the first), as in 👨‍👩‍👧.
const STRAY_ZWJ =
  /(?<!\p{Extended_Pictographic}\uFE0F?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;

// One variation selector after a character is ordinary (text vs emoji presentation); a run of them is not.
const SELECTOR_RUN = /[\uFE00-\uFE0F]{2,}/gu;

/**
 * True when a secret scanner should look through this code point: everything {@link stripInvisible} can
 * remove, including every ZWJ and variation selector (no token contains one legitimately).
 */
export function isInvisibleCodePoint(codePoint: number): boolean {
  if (codePoint < 0xad) return false;
  if (codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return true;
  // `replace` restarts the global regex each call, so no lastIndex state leaks between calls.
  return String.fromCodePoint(codePoint).replace(INVISIBLE, '') === '';
}

/** Removes invisible characters used to hide instructions or split secrets; see {@link INVISIBLE}. */
export function stripInvisible(text: string): string {
  if (typeof text !== 'string') return '';
  return text.replace(INVISIBLE, '').replace(SELECTOR_RUN, '').replace(STRAY_ZWJ, '');
}

/**
 * How many UTF-16 code units {@link stripInvisible} removes (for telemetry: hidden text is a signal).
 * A tag character counts 2.
 */
export function countInvisible(text: string): number {
  return typeof text === 'string' ? text.length - stripInvisible(text).length : 0;
}
