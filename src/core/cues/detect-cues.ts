/**
 * Content cue detectors: does a text look like an error, a decision or an "IMPORTANT" note? Defence in
 * depth only. Cues never decide trust; they may relax the novelty gate solely for origins the privilege
 * table already allowlists, and the whole set can be switched off to prove that (see `detectors: 'off'`).
 * Input is capped before any regex and every pattern is a flat alternation (no nested quantifiers), so
 * scanning is linear in the capped length.
 */

/** The kinds of content cue. */
export const CUE_KINDS = ['error', 'decision', 'important'] as const;
/** One kind of content cue. */
export type CueKind = (typeof CUE_KINDS)[number];

/** No cues: what every detector reports when switched off, and a convenient "nothing detected". */
export const NO_CUES: readonly CueKind[] = Object.freeze([]);

/** Only the head of a text is scanned; cue words that matter are near the start, and this bounds cost. */
export const MAX_CUE_SCAN_CHARS = 16_384;

/** Options for {@link detectCues}. */
export interface CueOptions {
  /** `'off'` disables every detector (the detector-independence check). Default `'on'`. */
  readonly detectors?: 'on' | 'off';
}

// Letters of any script may not touch a cue word, so "terror" is no error and "décidément" no decision.
const START = String.raw`(?<![\p{L}\p{N}_])`;
const END = String.raw`(?![\p{L}\p{N}_])`;

function words(alternatives: readonly string[]): RegExp {
  return new RegExp(`${START}(?:${alternatives.join('|')})${END}`, 'iu');
}

// CJK has no word boundaries; those cues match as substrings.
const PATTERNS: Readonly<Record<CueKind, readonly RegExp[]>> = {
  error: [
    words([
      'error',
      'errors',
      'exception',
      'traceback',
      'fatal',
      'panic(?:ked)?',
      'failed',
      'failure',
      'segfault',
      'stack trace',
      'erreur',
      'échec',
      'fallo',
      'excepción',
      'fehler',
      'ausnahme',
      'ошибка',
    ]),
    // Case-sensitive on purpose: `TypeError`, `ENOENT` are shapes, "every" and "terror" are not.
    /(?<![\w$])(?:[A-Z][a-z]{1,30}Error|E(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|ISDIR|NOTDIR|MFILE|NOSPC|PIPE))(?![\w$])/u,
    /Traceback \(most recent call last\)|^\s{0,16}at [\w$.<>]{1,200} \(/mu,
    /错误|異常|异常|失败|エラー|例外|오류/u,
  ],
  decision: [
    words([
      'decided',
      'decision',
      'we will use',
      "we'll use",
      'going with',
      'settled on',
      'agreed',
      'chose',
      'from now on',
      'décidé',
      'décision',
      'decidimos',
      'decisión',
      'entschieden',
      'entscheidung',
      'решили',
      'решение',
    ]),
    /决定|決定|決めた|결정/u,
  ],
  important: [
    words([
      'important',
      'critical',
      'crucial',
      'must always',
      'never ever',
      'note well',
      'importante',
      'wichtig',
      'важно',
    ]),
    /重要|必ず|务必|중요/u,
  ],
};

/**
 * The cue kinds present in `text`, in {@link CUE_KINDS} order, each at most once. The text is capped to
 * {@link MAX_CUE_SCAN_CHARS} and NFKC-folded first so fullwidth look-alikes ("ＩＭＰＯＲＴＡＮＴ") count.
 */
export function detectCues(text: string, options: CueOptions = {}): readonly CueKind[] {
  if (options.detectors === 'off' || typeof text !== 'string' || text.length === 0) return NO_CUES;
  const head = text.slice(0, MAX_CUE_SCAN_CHARS).normalize('NFKC');
  return CUE_KINDS.filter((kind) => PATTERNS[kind].some((pattern) => pattern.test(head)));
}
