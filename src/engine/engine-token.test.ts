import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { createLogger } from '../log/log.js';
import { ensureEngineToken, readEngineToken, tokensMatch } from './engine-token.js';

const tempDir = useTempDirs();

function setup() {
  const home = tempDir();
  const logFile = join(home, 'log');
  const log = createLogger({ file: logFile, level: 'debug', clock: { now: () => new Date(0) } });
  return {
    path: join(home, 'engine.token'),
    home,
    log,
    logText: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}

describe('engine token', () => {
  it('creates a 0600 file with 64 hex characters, and keeps it on later calls', () => {
    const t = setup();
    const token = ensureEngineToken(t.path, t.log);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(lstatSync(t.path).mode & 0o777).toBe(0o600);
    expect(ensureEngineToken(t.path, t.log)).toBe(token);
    expect(readEngineToken(t.path)).toBe(token);
    // Written to a temporary name and linked into place: nothing is left behind.
    expect(readdirSync(t.home).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('replaces a token others could read, and never logs its value', () => {
    const t = setup();
    const old = ensureEngineToken(t.path, t.log);
    chmodSync(t.path, 0o644);
    expect(readEngineToken(t.path)).toBeUndefined();
    const fresh = ensureEngineToken(t.path, t.log);
    expect(fresh).not.toBe(old);
    expect(lstatSync(t.path).mode & 0o777).toBe(0o600);
    expect(t.logText()).toContain('engine token file replaced');
    expect(t.logText()).not.toContain(old);
    expect(t.logText()).not.toContain(fresh);
  });

  it('replaces a malformed token file and reads none from it', () => {
    const t = setup();
    writeFileSync(t.path, 'not-a-token\n', { mode: 0o600 });
    expect(readEngineToken(t.path)).toBeUndefined();
    expect(ensureEngineToken(t.path, t.log)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches only the exact token', () => {
    const token = 'a'.repeat(64);
    expect(tokensMatch(token, token)).toBe(true);
    expect(tokensMatch(`${token}a`, token)).toBe(false);
    expect(tokensMatch('a'.repeat(63), token)).toBe(false);
    expect(tokensMatch('', token)).toBe(false);
    expect(tokensMatch(undefined, token)).toBe(false);
    expect(tokensMatch(64, token)).toBe(false);
  });
});
