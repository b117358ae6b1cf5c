import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { ENVELOPE_OF, openWriteApp } from '../../test/helpers/write-kit.js';
import { writeMemory } from './write-memory.js';

const tempDir = useTempDirs();
const PROJECT = '/home/dev/project-a';

// Synthetic secrets assembled at run time, so no key shape sits in the repository. All fake.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function filler(length: number, seed: number, alphabet = ALNUM): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return `${out.slice(0, -2)}7${alphabet[0]}`;
}

const AWS = `AKIA${filler(16, 3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
const GITHUB = `ghp_${filler(36, 4)}`;
const OPENAI = `sk-proj-${filler(100, 5)}`;
const PASSWORD = `Zr8${filler(13, 6)}`;
const PEM_BODY = filler(64, 7);
const SPLIT = `sk-${filler(48, 8)}`;
const HIDDEN = `ghp_${filler(36, 9)}`;

/** Each planted secret, and the text it is planted in. */
const PLANTED: [string, string][] = [
  [AWS, `the CI uses ${AWS} for uploads`],
  [GITHUB, `GITHUB_TOKEN=${GITHUB}`],
  [OPENAI, `curl -H "Authorization: Bearer ${OPENAI}" https://api.example`],
  [PASSWORD, `DATABASE_URL=postgres://app:${PASSWORD}@db.internal:5432/app`],
  [PEM_BODY, `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`],
  [SPLIT, `key: ${SPLIT.slice(0, 20)} ${SPLIT.slice(20)}`],
  [HIDDEN, `token ${HIDDEN.slice(0, 10)}\u200b${HIDDEN.slice(10)}`],
];

/** Every file of the store and the log directory, raw bytes as latin1 (a byte-exact string). */
function rawBytes(home: string): string {
  const files = readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  expect(files.some((f) => f.endsWith('.db'))).toBe(true);
  return files.map((f) => readFileSync(f).toString('latin1')).join('\n');
}

describe('writeMemory: redaction before storage (W6)', () => {
  it('keeps planted secrets out of the database, its WAL, the index and the log', async () => {
    const home = tempDir();
    const { app, deps } = await openWriteApp(home, { env: { MNEMO_LOG_LEVEL: 'debug' } });
    const ids: string[] = [];
    try {
      for (const [origin, channel] of [
        ['user', ENVELOPE_OF.user],
        ['network', ENVELOPE_OF.network],
      ] as const) {
        for (const [i, [, text]] of PLANTED.entries()) {
          // One project each: redacted texts look alike and would otherwise merge.
          const outcome = await writeMemory(deps, {
            envelope: channel,
            content: `${origin} note: ${text}`,
            projectKey: `${PROJECT}/${origin}/${i}`,
            tags: ['secrets', GITHUB.toLowerCase()],
          });
          if (outcome.decision !== 'store')
            throw new Error(`expected store, got ${outcome.reason}`);
          ids.push(outcome.memory.id);
          expect(outcome.memory.content).toMatch(/\[REDACTED:[a-z_]+\]/);
          expect(outcome.memory.redactions).toBeGreaterThanOrEqual(2);
          expect(outcome.memory.tags).toEqual(['secrets']);
          expect(outcome.notes.join('\n')).toMatch(/secret\(s\) redacted/);
        }
      }
      for (const [secret] of PLANTED) {
        expect(await app.store.searchLexical(secret, { limit: 5 })).toEqual([]);
      }
      expect(existsSync(`${app.config.databasePath}-wal`)).toBe(true);
      const whileOpen = rawBytes(home);
      for (const [secret] of PLANTED) expect(whileOpen).not.toContain(secret);
    } finally {
      await app.close();
    }
    const afterClose = rawBytes(home);
    for (const [secret] of PLANTED) {
      expect(afterClose).not.toContain(secret);
      expect(afterClose).not.toContain(secret.toLowerCase());
    }
    expect(ids).toHaveLength(PLANTED.length * 2);
  });
});
