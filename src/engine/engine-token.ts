/**
 * The per-install engine token: 32 random bytes (hex) in `home/engine.token`, mode 0600, that every
 * request to `mnemo serve` must present. It keeps other local accounts (and anything that can reach the
 * socket path but not the home) from querying memory. Created atomically (written, fsync'd, then linked
 * into place), compared in constant time, and never logged.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, lstatSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

import type { Logger } from '../log/log.js';
import {
  FOREIGN_ANY_BITS,
  fsyncDir,
  privacyProblem,
  replaceFileDurably,
  writeNewFileSynced,
} from '../platform/private-fs.js';

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

type TokenRead = { ok: true; token: string } | { ok: false; problem: string };

function readToken(path: string): TokenRead {
  let problem: string | undefined;
  try {
    problem = privacyProblem(lstatSync(path), { kind: 'file', forbiddenBits: FOREIGN_ANY_BITS });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, problem: 'missing' };
    throw error;
  }
  if (problem !== undefined) return { ok: false, problem };
  const token = readFileSync(path, 'utf8').trim();
  return TOKEN_PATTERN.test(token) ? { ok: true, token } : { ok: false, problem: 'malformed' };
}

/**
 * The token a client presents, or undefined when the file is missing, malformed, or readable or
 * writable by another account (such a token may be known to others: the engine replaces it).
 */
export function readEngineToken(path: string): string | undefined {
  try {
    const read = readToken(path);
    return read.ok ? read.token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The engine's side: returns the token, creating it when missing. A token file that another account
 * could read or write, or that is malformed, is replaced with a fresh one (logged without the value):
 * its secret may be known, so keeping it would be the unsafe choice.
 */
export function ensureEngineToken(path: string, log: Logger): string {
  const current = readToken(path);
  if (current.ok) return current.token;
  const fresh = randomBytes(32).toString('hex');
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  if (current.problem === 'missing') {
    writeNewFileSynced(tmp, `${fresh}\n`, 0o600);
    try {
      linkSync(tmp, path);
      fsyncDir(dirname(path));
      return fresh;
    } catch (error) {
      // Another engine start created it first: use that one.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(tmp, { force: true });
    }
    return ensureEngineToken(path, log);
  }
  log.warn('engine token file replaced', { path, problem: current.problem });
  replaceFileDurably(path, `${fresh}\n`, 0o600, tmp);
  return fresh;
}

/** Compares a presented token with the real one in constant time (digests equalise the lengths). */
export function tokensMatch(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}
