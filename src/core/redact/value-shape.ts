/**
 * Shape tests on candidate secret values: is it a documented example, a placeholder or reference rather
 * than a value, or random enough to be a token? These keep the false-positive twins (example keys, type
 * annotations, `${VAR}` references, ordinary words) out of the redactor's reach.
 */

/** Documented example keys (AWS, Stripe docs): shown in tutorials everywhere, never live. */
const DOCUMENTED_EXAMPLES: ReadonlySet<string> = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'ASIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
]);

/** True for a documented example key; AWS marks all of its examples with an `EXAMPLE` suffix. */
export function isDocumentedExample(value: string): boolean {
  return DOCUMENTED_EXAMPLES.has(value) || /EXAMPLE(?:KEY)?$/.test(value);
}

const HAS_DIGIT = /\d/;
const HAS_LETTER = /[A-Za-z]/;

/** Letters and digits both present: random keys have them, hyphenated words ("sk-learn-…") do not. */
export function isMixedAlnum(value: string): boolean {
  return HAS_DIGIT.test(value) && HAS_LETTER.test(value);
}

// Words that stand for a value rather than being one: types, literals, and documentation placeholders.
const PLACEHOLDER_WORDS =
  /^(?:null|nil|none|undefined|true|false|string|str|number|int|integer|bool|boolean|any|unknown|object|bytes|optional|required|secret|secrets|password|passwd|pass|token|key|redacted|hidden|masked|example|dummy|placeholder|changeme|change_me|change-me|todo|tbd|test|your[\w-]*|my[_-][\w-]*|\.\.\.|…)$/i;

/**
 * True when a value is a reference, a type or a placeholder, not a secret: empty; `$VAR`, `${VAR}`,
 * `%VAR%`, `{{ x }}`, `<your-key>`; an existing `[REDACTED:…]`; runs of `*`, `x` or `.`; literals and type
 * names (`null`, `string`); documented placeholders (`changeme`, `your_api_key`); documented example keys.
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (/^(?:\$|%|<|\{|\[REDACTED:|process\.env\b|os\.environ\b|env\()/i.test(v)) return true;
  if (/^(.)\1*$/.test(v)) return true;
  if (/^[*xX•.]+$/.test(v)) return true;
  return PLACEHOLDER_WORDS.test(v) || isDocumentedExample(v);
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const TOKEN_ALPHABET = /^[A-Za-z0-9+/=_.~-]{12,512}$/;
const CODE_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * True when a value looks like a machine token: only token characters, at least 12 of them, and either
 * letters mixed with digits or high entropy. Dotted code paths (`config.apiKey`) are not tokens.
 */
export function isTokenish(value: string): boolean {
  if (!TOKEN_ALPHABET.test(value) || CODE_PATH.test(value)) return false;
  if (isMixedAlnum(value)) return true;
  return value.length >= 16 && shannonEntropy(value) >= 3.5;
}
