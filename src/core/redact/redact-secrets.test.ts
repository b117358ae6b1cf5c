import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MAX_REDACT_CHARS, redactSecrets, sanitiseForStorage } from './redact-secrets.js';
import type { RedactionKind } from './secret-patterns.js';

// Synthetic secrets are assembled at run time so no literal key shape sits in the repository for secret
// scanners to flag. Every sample is fake.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A deterministic pseudo-random string over `alphabet` (seeded, so table tests are stable). */
function filler(length: number, seed: number, alphabet = ALNUM): string {
  let state = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  // Random keys mix letters and digits; make sure every sample does, within its alphabet.
  return `${out.slice(0, -2)}${alphabet.includes('7') ? '7' : alphabet[1]}${alphabet[0]}`;
}

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** One sample per provider shape: [kind, secret]. */
function providerSamples(seed = 1): [RedactionKind, string][] {
  const f = (n: number, k: number, alphabet?: string) => filler(n, seed * 31 + k, alphabet);
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${f(8, 1)}","iat":1700000000}`)}.${f(43, 2)}`;
  return [
    ['aws_access_key_id', `AKIA${f(16, 3, UPPER_ALNUM)}`],
    ['github_token', `ghp_${f(36, 4)}`],
    ['github_token', `github_pat_${f(22, 5)}_${f(59, 6)}`],
    ['gitlab_token', `glpat-${f(20, 7)}`],
    ['openai_key', `sk-${f(48, 8)}`],
    ['openai_key', `sk-proj-${f(120, 9)}`],
    ['anthropic_key', `sk-ant-api03-${f(93, 10)}AA`],
    ['stripe_key', `sk_live_${f(24, 11)}`],
    ['stripe_key', `rk_live_${f(24, 12)}`],
    ['slack_token', `xoxb-${f(12, 13, '0123456789')}-${f(13, 14, '0123456789')}-${f(24, 15)}`],
    [
      'slack_webhook',
      `https://hooks.slack.com/services/T${f(8, 16, UPPER_ALNUM)}/B${f(10, 17, UPPER_ALNUM)}/${f(24, 18)}`,
    ],
    ['discord_webhook', `https://discord.com/api/webhooks/${f(18, 19, '0123456789')}/${f(68, 20)}`],
    ['google_api_key', `AIza${f(35, 21)}`],
    ['npm_token', `npm_${f(36, 22)}`],
    ['huggingface_token', `hf_${f(34, 23)}`],
    ['sendgrid_key', `SG.${f(22, 24)}.${f(43, 25)}`],
    ['jwt', jwt],
  ];
}

/** A fast-check generator of provider-shaped secrets. */
const secretArbitrary: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.nat({ max: 1000 }))
  .map(([seed, pick]) => {
    const samples = providerSamples(seed);
    return samples[pick % samples.length]![1];
  });

/** Random prose-like text: words of letters, digits and punctuation, never touching a secret. */
const proseArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom('the', 'build', 'failed', 'note', 'key', 'token:', 'Bearer', 'sk-learn', 'a'),
      fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/\s/.test(s)),
    ),
    { maxLength: 30 },
  )
  .map((words) => words.join(' '));

const wrap = (text: string, width: number) =>
  text.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
const redacted = (text: string) => redactSecrets(text).text;

describe('redactSecrets: provider shapes', () => {
  it.each(providerSamples(1).map(([kind, secret]) => [kind, secret] as const))(
    'redacts %s',
    (kind, secret) => {
      const result = redactSecrets(`deploy with ${secret} then restart`);
      expect(result.text).toBe(`deploy with [REDACTED:${kind}] then restart`);
      expect(result.kinds).toEqual([kind]);
      expect(result.redactions).toBe(1);
    },
  );

  it('redacts a key glued to quotes, brackets and punctuation', () => {
    const key = providerSamples(2)[1]![1];
    for (const text of [`"${key}"`, `(${key})`, `key=${key};`, `<${key}>`, `'${key}',`]) {
      expect(redacted(text)).not.toContain(key);
    }
  });
});

describe('redactSecrets: context-shaped secrets', () => {
  const pw = `Zr8${filler(13, 77)}`;
  const token = filler(40, 78);

  it.each([
    [
      'dsn_password',
      `postgres://app:${pw}@db.internal:5432/app`,
      'postgres://app:[REDACTED:dsn_password]@db.internal:5432/app',
    ],
    [
      'dsn_password',
      `mongodb+srv://root:p@ss${pw}@cluster0/x`,
      'mongodb+srv://root:[REDACTED:dsn_password]@cluster0/x',
    ],
    [
      'authorization',
      `curl -H "Authorization: Bearer ${token}" https://api`,
      'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api',
    ],
    [
      'authorization',
      `authorization: Basic ${btoa(`me:${pw}`)}`,
      'authorization: Basic [REDACTED:authorization]',
    ],
    ['bearer_token', `send Bearer ${token} along`, 'send Bearer [REDACTED:bearer_token] along'],
    ['password', `DB_PASSWORD=${pw}`, 'DB_PASSWORD=[REDACTED:password]'],
    ['password', 'PGPASSWORD=hunter2 psql', 'PGPASSWORD=[REDACTED:password] psql'],
    ['password', 'password: "correct horse"', 'password: "[REDACTED:password]"'],
    ['password', 'mysql --password hunter', 'mysql --password [REDACTED:password]'],
    ['password', 'db_pass=letmein', 'db_pass=[REDACTED:password]'],
    ['secret', `{"client_secret": "${pw}"}`, '{"client_secret": "[REDACTED:secret]"}'],
    ['secret', `export OPENAI_API_KEY=${token}`, 'export OPENAI_API_KEY=[REDACTED:secret]'],
    ['secret', `x-api-key: ${token}`, 'x-api-key: [REDACTED:secret]'],
    ['secret', `SECRET_KEY_BASE=${token}`, 'SECRET_KEY_BASE=[REDACTED:secret]'],
    ['secret', `auth_token = '${token}'`, "auth_token = '[REDACTED:secret]'"],
    [
      'aws_secret_access_key',
      `aws_secret_access_key = ${filler(30, 79)}/${filler(9, 80)}`,
      'aws_secret_access_key = [REDACTED:aws_secret_access_key]',
    ],
  ] as const)('redacts %s in %j', (kind, input, expected) => {
    const result = redactSecrets(input);
    expect(result.text).toBe(expected);
    expect(result.kinds).toContain(kind);
  });

  it('redacts a PEM private key block, whole', () => {
    const body = wrap(btoa(filler(900, 81)), 64);
    for (const label of [
      'RSA PRIVATE KEY',
      'PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'PGP PRIVATE KEY BLOCK',
    ]) {
      const pem = `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
      expect(redacted(`key:\n${pem}\ndone`)).toBe('key:\n[REDACTED:private_key]\ndone');
    }
  });

  it('redacts a PEM key inside JSON with escaped newlines, and an unterminated one', () => {
    const body = wrap(btoa(filler(600, 82)), 64);
    const json = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.replaceAll('\n', '\\n')}\\n-----END PRIVATE KEY-----\\n"}`;
    expect(redacted(json)).not.toContain(body.slice(0, 64));
    const cut = `-----BEGIN RSA PRIVATE KEY-----\n${body}\nThanks, that is all.`;
    expect(redacted(cut)).toBe('[REDACTED:private_key]\nThanks, that is all.');
  });

  it('redacts every secret of an env dump and keeps the rest (W6)', () => {
    const gh = providerSamples(3)[1]![1];
    const dump = `HOME=/home/me\nGITHUB_TOKEN=${gh}\nSHELL=/bin/zsh\nDATABASE_URL=postgres://u:${pw}@h/db`;
    expect(redacted(dump)).toBe(
      'HOME=/home/me\nGITHUB_TOKEN=[REDACTED:github_token]\nSHELL=/bin/zsh\nDATABASE_URL=postgres://u:[REDACTED:dsn_password]@h/db',
    );
  });
});

describe('redactSecrets: split and hidden secrets', () => {
  const samples = providerSamples(4);
  const github = samples[1]![1];
  const openai = samples[5]![1];
  const aws = samples[0]![1];

  it('redacts a key broken over lines (W6-split-nl)', () => {
    const text = `token follows:\n${wrap(openai, 40)}\nnext line of prose`;
    const out = redacted(text);
    expect(out).toContain('[REDACTED:openai_key]');
    for (const piece of wrap(openai, 40).split('\n')) expect(out).not.toContain(piece);
    expect(out).toContain('next line of prose');
  });

  it('redacts a key split by spaces (W6-split-space)', () => {
    const spaced = `${github.slice(0, 14)} ${github.slice(14, 28)} ${github.slice(28)}`;
    expect(redacted(`use ${spaced} now`)).toBe('use [REDACTED:github_token] now');
  });

  it('redacts a split key that follows a word on the previous line', () => {
    const text = `my key is\n${aws.slice(0, 10)}\n${aws.slice(10)}\nok`;
    expect(redacted(text)).toBe('my key is\n[REDACTED:aws_access_key_id]\nok');
  });

  it('redacts a key interleaved with zero-width and tag characters', () => {
    const hidden = `${github.slice(0, 6)}\u200B${github.slice(6, 20)}\u{E0041}${github.slice(20)}`;
    expect(redacted(`x ${hidden} y`)).toBe('x [REDACTED:github_token] y');
  });

  it('redacts a base64-wrapped key, whole run (W6-b64)', () => {
    const encoded = btoa(`OPENAI_API_KEY=${openai}\n`);
    expect(redacted(`config: ${encoded} end`)).toBe('config: [REDACTED:openai_key] end');
  });

  it('redacts a base64 blob wrapped at 76 columns whose middle holds a key', () => {
    const encoded = wrap(
      btoa(`${'lorem ipsum '.repeat(20)}token ${github} ${'dolor '.repeat(30)}`),
      76,
    );
    const out = redacted(`blob:\n${encoded}\n`);
    expect(out).toBe('blob:\n[REDACTED:github_token]\n');
  });

  it('redacts a base64url-wrapped and a hex-wrapped key', () => {
    const url = btoa(`k=${github}`).replaceAll('+', '-').replaceAll('/', '_');
    expect(redacted(url)).toBe('[REDACTED:github_token]');
    const hex = [...`key ${aws}`]
      .map((c) => c.charCodeAt(0).toString(16).padStart(2, '0'))
      .join('');
    expect(redacted(`hex ${hex}`)).toBe('hex [REDACTED:aws_access_key_id]');
  });

  it('redacts a key wrapped twice in base64', () => {
    expect(redacted(btoa(btoa(`token ${github}`)))).toBe('[REDACTED:github_token]');
  });
});

describe('redactSecrets: false-positive twins stay untouched', () => {
  it.each([
    'commit 3f786850e387550fdab836ed7e6dc881de23001b fixes the build',
    'GIT_COMMIT=3f786850e387550fdab836ed7e6dc881de23001b',
    'request_id: 123e4567-e89b-12d3-a456-426614174000',
    '123e4567-e89b-12d3-a456-426614174000',
    'Set AWS_SECRET_ACCESS_KEY and GITHUB_TOKEN in your shell',
    'echo $GITHUB_TOKEN',
    'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
    'export OPENAI_API_KEY=$OPENAI_API_KEY',
    'DB_PASSWORD=${DB_PASSWORD}',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'The docs use AKIAIOSFODNN7EXAMPLE as the example key.',
    'interface Login { password: string; apiKey?: string; token: Token }',
    'const token = getToken(); const password = config.password;',
    'if (password === input) return',
    'max_tokens: 4096, token_count: 12, password_min_length: 12',
    'primary_key = "id"; sort_key: created_at; cache_key = "user:42:profile"',
    'TOKEN_URL=https://auth.example.com/token',
    'SECRET_NAME=prod/db/creds',
    'public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx8iXhbWqzUSCrLzQyZ4mD5UyD7mI2L7n7kUtq1WvF2 me@host"',
    'sk-learn is the common name for scikit learn 2023 and later',
    'He was the Bearer of bad news.',
    'http://localhost:3000/path and https://example.com:8443/x@y',
    'postgres://user:password@localhost/db',
    'PWD=/home/me/project OLDPWD=/tmp',
    'The token was invalid; please reset your password and rotate the secret key.',
    'keyboard: qwerty, monkey: banana, keyword: secretary',
    'Authorization: required',
    `data:image/png;base64,${btoa(String.fromCharCode(...Array.from({ length: 300 }, (_, i) => (i * 73) % 256)))}`,
  ])('leaves %j unchanged', (text) => {
    const result = redactSecrets(text);
    expect(result.text).toBe(text);
    expect(result.redactions).toBe(0);
  });
});

describe('redactSecrets: properties', () => {
  it('never outputs a planted secret', () => {
    fc.assert(
      fc.property(proseArbitrary, secretArbitrary, proseArbitrary, (before, secret, after) => {
        expect(redacted(`${before} ${secret} ${after}`)).not.toContain(secret);
      }),
    );
  });

  it('never outputs a fragment of a planted secret split by spaces or newlines', () => {
    const split = fc
      .tuple(secretArbitrary, fc.integer({ min: 1, max: 3 }), fc.constantFrom(' ', '\n', '\n  '))
      .map(([secret, parts, gap]) => {
        const size = Math.ceil(secret.length / (parts + 1));
        return { secret, pieces: secret.match(new RegExp(`.{1,${size}}`, 'g'))!, gap };
      })
      // A fragment that reads as a word is not joined by design ("sk-learn is the…" stays prose).
      .filter(({ pieces }) =>
        pieces.every((p, i) => i === 0 || p.length >= 16 || !/^(?:[a-z]+|[A-Z][a-z]+)$/.test(p)),
      )
      .filter(({ pieces }) => pieces.slice(1, -1).every((p) => p.length >= 4));
    fc.assert(
      fc.property(proseArbitrary, split, proseArbitrary, (before, { pieces, gap }, after) => {
        const out = redacted(`${before}\n${pieces.join(gap)}\n${after}`);
        for (const piece of pieces) if (piece.length >= 8) expect(out).not.toContain(piece);
      }),
    );
  });

  it('never outputs a planted secret wrapped in base64', () => {
    fc.assert(
      fc.property(proseArbitrary, secretArbitrary, (before, secret) => {
        const encoded = btoa(`${before.replace(/[^\x20-\x7e]/g, '')} ${secret}`);
        expect(redacted(`blob ${encoded} end`)).not.toContain(encoded);
      }),
    );
  });

  it('is idempotent', () => {
    const mixed = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.tuple(proseArbitrary, secretArbitrary, proseArbitrary).map((parts) => parts.join(' ')),
      fc.tuple(proseArbitrary, secretArbitrary).map(([p, s]) => `${p}\n${wrap(s, 11)}\n${p}`),
    );
    fc.assert(
      fc.property(mixed, (text) => {
        const once = redactSecrets(text);
        const twice = redactSecrets(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.redactions).toBe(0);
      }),
    );
  });
});

describe('redactSecrets: bounded input (W9)', () => {
  it('caps a 5 MB input, drops the tail and marks it', () => {
    const secretAtEnd = providerSamples(5)[1]![1];
    const result = redactSecrets(`${'word '.repeat(1_048_576)}${secretAtEnd}`);
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(MAX_REDACT_CHARS);
    expect(result.text).toMatch(/\n\[TRUNCATED:\d+ characters not scanned\]$/);
    expect(result.text).not.toContain(secretAtEnd);
    expect(redactSecrets(result.text).text).toBe(result.text);
  });

  it.each([
    ['a newline run', '\n'.repeat(2_000_000)],
    ['repeated prefixes', 'ghp_ AKIA sk- eyJ- xoxb- '.repeat(100_000)],
    ['repeated PEM headers', '-----BEGIN PRIVATE KEY-----\n'.repeat(50_000)],
    ['repeated assignments', 'password='.repeat(200_000)],
    ['repeated separators', 'token: a:'.repeat(200_000)],
    ['repeated authorization', 'Authorization: '.repeat(100_000)],
    ['repeated DSN heads', 'postgres://u:'.repeat(100_000)],
    ['one long token run', 'A'.repeat(3_000_000)],
    ['wrapped base64 lines', `${'QUFB'.repeat(19)}\n`.repeat(20_000)],
    ['JWT-like chains', 'eyJabcdefgh.'.repeat(200_000)],
  ])('completes on %s', (_name, text) => {
    const result = redactSecrets(text);
    expect(result.text.length).toBeLessThanOrEqual(MAX_REDACT_CHARS);
    expect(result.truncated).toBe(text.length > MAX_REDACT_CHARS);
  });
});

describe('sanitiseForStorage', () => {
  it('strips invisible characters, then redacts', () => {
    const key = providerSamples(6)[1]![1];
    const result = sanitiseForStorage(`note\u{E0049}\u{E0047} ${key}\u202E`);
    expect(result.text).toBe('note [REDACTED:github_token]');
    expect(result.invisibleRemoved).toBe(5);
  });
});
