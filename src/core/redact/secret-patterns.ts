/**
 * Value-shaped secret patterns: provider keys whose shape alone identifies them, and credentials in URLs
 * and headers. Token patterns open with a negative lookbehind on their own body alphabet, so a match can
 * start at most once per run of token characters; URL patterns open with a literal scheme; every quantifier
 * is bounded. Together that keeps each scan linear in the input.
 */
import { isDocumentedExample, isMixedAlnum, isPlaceholderValue } from './value-shape.js';

/** Kinds a redaction can carry; the placeholder is `[REDACTED:<kind>]`. Stable: add, never rename. */
export const REDACTION_KINDS = [
  'aws_access_key_id',
  'aws_secret_access_key',
  'github_token',
  'gitlab_token',
  'openai_key',
  'anthropic_key',
  'stripe_key',
  'slack_token',
  'slack_webhook',
  'discord_webhook',
  'google_api_key',
  'google_oauth_secret',
  'npm_token',
  'pypi_token',
  'huggingface_token',
  'sendgrid_key',
  'digitalocean_token',
  'shopify_token',
  'private_key',
  'jwt',
  'dsn_password',
  'authorization',
  'bearer_token',
  'password',
  'secret',
] as const;
/** One redaction kind. */
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** A span of the scanned text to replace. */
export interface Finding {
  readonly start: number;
  readonly end: number;
  readonly kind: RedactionKind;
}

/**
 * A secret pattern. Provider patterns redact the whole match; context patterns carry flag `d` and redact
 * capture group 1 only.
 */
export interface SecretPattern {
  readonly kind: RedactionKind;
  readonly regex: RegExp;
  /** Extra check on the redacted value; false means "looks like the shape, but is not a secret". */
  readonly validate?: (value: string) => boolean;
  /** Whether the whitespace-joined view may assemble this shape from fragments. */
  readonly splittable: boolean;
}

/** The placeholder written in place of a secret. */
export function placeholder(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

const notExample = (value: string): boolean => !isDocumentedExample(value);
const mixedNotExample = (value: string): boolean => isMixedAlnum(value) && notExample(value);

/**
 * Provider patterns, most specific first (Anthropic before OpenAI: both start `sk-`). All are global; the
 * caller resets `lastIndex` by using `matchAll`.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'aws_access_key_id',
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    validate: notExample,
    splittable: true,
  },
  {
    kind: 'github_token',
    regex:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,244})(?![A-Za-z0-9_])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'gitlab_token',
    regex:
      /(?<![\w-])gl(?:pat|dt|rt|ptt|cbt|imt|oas|ffct|soat|agent)-[A-Za-z0-9_-]{20,255}(?![\w-])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'anthropic_key',
    regex: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,255}(?![\w-])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'openai_key',
    regex: /(?<![\w-])sk-(?!ant-)[A-Za-z0-9_-]{20,255}(?![\w-])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'stripe_key',
    regex:
      /(?<![\w])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,247})(?![A-Za-z0-9])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'slack_token',
    regex: /(?<![\w-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,255}(?![\w-])/g,
    validate: mixedNotExample,
    splittable: true,
  },
  {
    kind: 'slack_webhook',
    regex: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,255}/g,
    splittable: true,
  },
  {
    kind: 'discord_webhook',
    regex:
      /https?:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,255}/g,
    splittable: true,
  },
  {
    kind: 'google_api_key',
    regex: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g,
    validate: notExample,
    splittable: true,
  },
  {
    kind: 'google_oauth_secret',
    regex: /(?<![\w-])GOCSPX-[A-Za-z0-9_-]{28}(?![\w-])/g,
    splittable: true,
  },
  {
    kind: 'npm_token',
    regex: /(?<![\w])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    validate: isMixedAlnum,
    splittable: true,
  },
  {
    kind: 'pypi_token',
    regex: /(?<![\w-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}(?![\w-])/g,
    splittable: true,
  },
  {
    kind: 'huggingface_token',
    regex: /(?<![\w])hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9])/g,
    validate: (value) => /[A-Z]/.test(value) && /[a-z]/.test(value.slice(3)),
    splittable: true,
  },
  {
    kind: 'sendgrid_key',
    regex: /(?<![\w.-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![\w-])/g,
    splittable: true,
  },
  {
    kind: 'digitalocean_token',
    regex: /(?<![\w])do[por]_v1_[a-f0-9]{64}(?![a-f0-9])/g,
    splittable: true,
  },
  {
    kind: 'shopify_token',
    regex: /(?<![\w])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![a-fA-F0-9])/g,
    splittable: true,
  },
  {
    kind: 'jwt',
    regex:
      /(?<![\w.-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{0,4096}(?![\w-])/g,
    splittable: true,
  },
];

/**
 * Credentials inside URLs and headers, where only part of the match is secret: capture group 1 of each
 * regex (flag `d` exposes its offsets); the rest of the match stays readable.
 */
export const CONTEXT_PATTERNS: readonly SecretPattern[] = [
  {
    // scheme://user:password@host — the user and host stay readable.
    kind: 'dsn_password',
    regex:
      /(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/]{0,256}:([^\s/@]{1,256}(?:@[^\s/@]{1,64}){0,4})@/dg,
    validate: (value) => !isPlaceholderValue(value),
    splittable: false,
  },
  {
    kind: 'authorization',
    // A bare scheme word is what is left when no credential follows ("Authorization: Bearer" + newline).
    validate: (value) =>
      !isPlaceholderValue(value) && !/^(?:bearer|basic|token|digest)$/i.test(value),
    regex:
      /(?<![\w-])(?:proxy-)?authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:(?:bearer|basic|token|digest|bot|apikey|key|sso-key|hmac)[ \t]{1,8})?([^\s"',;]{6,4096})/dgi,
    splittable: false,
  },
  {
    // "Bearer" outside a header: case-sensitive and mixed alphanumerics, so "Bearer of bad news" stays.
    kind: 'bearer_token',
    regex: /(?<![\w-])Bearer[ \t]{1,8}([A-Za-z0-9._~+/-]{16,4096}=*)/dg,
    validate: isMixedAlnum,
    splittable: false,
  },
];
