/**
 * Secrets named by their context: `NAME=value`, `NAME: value`, `"name": "value"`, `--flag value`, where the
 * name says password, secret, token, key or credential. The name decides whether a value is looked at; the
 * value's shape decides whether it is a secret (a password-named field redacts any real value, a token-named
 * one only a token-shaped value). Names are matched by regex, values are parsed by hand, so no pattern has
 * to guess where a quoted value ends.
 */
import type { Finding, RedactionKind } from './secret-patterns.js';
import { isDocumentedExample, isPlaceholderValue, isTokenish } from './value-shape.js';

const MAX_VALUE = 512;

// The lookbehind admits one start per identifier run; quantifiers are bounded, so the scan is linear.
const ASSIGNMENT =
  /(?<![\w.$-])(-{0,2}[A-Za-z_][\w.-]{0,63})(["']?)[ \t]{0,8}(:=|=>|=|:)[ \t]{0,8}/g;
const FLAG_WITH_SPACE = /(?<![\w.$-])(--?[A-Za-z][\w-]{0,63})[ \t]{1,8}(?=[^\s-])/g;

// Last words that describe a secret without being one (`SECRET_NAME`, `TOKEN_URL`, `max_tokens_count`).
const METADATA_WORDS: ReadonlySet<string> = new Set(
  (
    'id ids name names file files path paths dir url uri urls endpoint host length len size count type ' +
    'types kind format env var field header prefix suffix hint label ttl expiry expires expiration ' +
    'timeout algorithm alg version policy mode enabled required min max regex pattern location arn ' +
    'rotation provider store manager limit usage tokens'
  ).split(' '),
);

// `key` preceded by one of these is a data-structure key, not a credential.
const NON_SECRET_KEY_QUALIFIERS: ReadonlySet<string> = new Set(
  (
    'primary foreign sort partition cache dedupe dedup idempotency map dict row object composite unique ' +
    'index lookup group hot shortcut short hash public pub publishable react list route storage'
  ).split(' '),
);

const TOKEN_WORDS: ReadonlySet<string> = new Set(
  'token key apikey auth authorization cookie signature sig bearer jwt otp totp salt'.split(' '),
);

function nameWords(name: string): string[] {
  const words = name.replace(/^-+/, '').match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  return words.map((word) => word.toLowerCase());
}

type NameClass = { strength: 'password' | 'token'; kind: RedactionKind } | null;

/** Classifies a field name; `null` when the name says nothing about secrets. */
export function classifySecretName(name: string): NameClass {
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined || METADATA_WORDS.has(last)) return null;
  if (words.some((word) => word === 'public' || word === 'publishable' || word === 'pub'))
    return null;
  const compact = words.join('');
  if (compact.includes('aws') && compact.includes('secret')) {
    return { strength: 'password', kind: 'aws_secret_access_key' };
  }
  if (/passw(?:or)?d|passphrase/.test(compact)) return { strength: 'password', kind: 'password' };
  if (words.length > 1 && (words.includes('pwd') || words.includes('pass'))) {
    return { strength: 'password', kind: 'password' };
  }
  if (/secret|credential|privatekey/.test(compact)) return { strength: 'password', kind: 'secret' };
  if (compact.includes('token') || compact.includes('apikey') || compact.includes('accesskey')) {
    return { strength: 'token', kind: 'secret' };
  }
  const keyAt = words.lastIndexOf('key');
  if (keyAt >= 0 && !NON_SECRET_KEY_QUALIFIERS.has(words[keyAt - 1] ?? '')) {
    return { strength: 'token', kind: 'secret' };
  }
  return words.some((word) => TOKEN_WORDS.has(word)) ? { strength: 'token', kind: 'secret' } : null;
}

interface ParsedValue {
  start: number;
  end: number;
  quoted: boolean;
}

const UNQUOTED_VALUE = /[^\s"'`,;(){}[\]<>]{1,512}/y;

function parseValue(text: string, at: number): ParsedValue | null {
  const first = text[at];
  if (first === undefined || first === '=' || first === '>') return null;
  if (first === '"' || first === "'" || first === '`') {
    for (let i = at + 1; i < text.length && i <= at + MAX_VALUE + 1; i++) {
      const ch = text[i];
      if (ch === '\n') return null;
      if (ch === '\\') i++;
      else if (ch === first) return { start: at + 1, end: i, quoted: true };
    }
    return null;
  }
  UNQUOTED_VALUE.lastIndex = at;
  const match = UNQUOTED_VALUE.exec(text);
  if (match === null) return null;
  const end = at + match[0].length;
  // A call (`getPassword()`) is code, not a value.
  return text[end] === '(' ? null : { start: at, end, quoted: false };
}

interface ValueContext {
  strength: 'password' | 'token';
  quoted: boolean;
  /** `=` with no space around it (env files, shell), or a `--flag value` pair. */
  tight: boolean;
}

function isSecretValue(value: string, context: ValueContext): boolean {
  if (isPlaceholderValue(value) || isDocumentedExample(value)) return false;
  if (context.strength === 'token') return isTokenish(value);
  if (context.quoted) return true;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  // A bare word after `:` or a spaced `=` is a type or a variable (`password: string`, `pwd = input`);
  // in `PASSWORD=hunter` or `--password hunter` it is the value itself.
  return context.tight || !/^[A-Za-z_]+$/.test(value);
}

function scan(text: string, pattern: RegExp, findings: Finding[]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const named = classifySecretName(match[1] ?? '');
    if (named === null) continue;
    const separator = match[3];
    const tight = separator === undefined || (separator === '=' && !/\s/.test(match[0]));
    const value = parseValue(text, match.index + match[0].length);
    if (value === null) continue;
    // Resume after the value, so `a=a=a=…` cannot make every name rescan the same tail (stays linear).
    pattern.lastIndex = Math.max(pattern.lastIndex, value.end);
    const raw = text.slice(value.start, value.end);
    if (!isSecretValue(raw, { strength: named.strength, quoted: value.quoted, tight })) continue;
    findings.push({ start: value.start, end: value.end, kind: named.kind });
  }
}

/** Findings for values assigned to secret-named fields, in order of appearance. */
export function findAssignedSecrets(text: string): Finding[] {
  const findings: Finding[] = [];
  scan(text, ASSIGNMENT, findings);
  scan(text, FLAG_WITH_SPACE, findings);
  return findings;
}
