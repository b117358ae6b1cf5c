import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { createLogger } from './log.js';

const tempDir = useTempDirs();
const clock = { now: () => new Date('2024-05-01T12:00:00.000Z') };

function collector(): { write(text: string): void; text(): string } {
  let buffer = '';
  return { write: (text) => void (buffer += text), text: () => buffer };
}

function lines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes JSON lines at or above the level and creates the log directory', () => {
    const file = join(tempDir(), 'logs', 'mnemo.log');
    const log = createLogger({ file, level: 'info', clock });
    log.debug('hidden');
    log.info('opened', { path: '/x' });
    log.error('failed');
    expect(lines(file)).toEqual([
      { at: '2024-05-01T12:00:00.000Z', level: 'info', msg: 'opened', path: '/x' },
      { at: '2024-05-01T12:00:00.000Z', level: 'error', msg: 'failed' },
    ]);
  });

  it('copies lines to stderr only at or above the stderr level', () => {
    const stderr = collector();
    const log = createLogger({ level: 'silent', clock, stderr, stderrLevel: 'debug' });
    log.debug('step', { n: 1 });
    expect(stderr.text()).toBe('[debug] step {"n":1}\n');
    const quiet = collector();
    createLogger({ level: 'debug', clock, stderr: quiet }).error('x');
    expect(quiet.text()).toBe('');
  });

  it('rotates by size and keeps a bounded number of old files', () => {
    const file = join(tempDir(), 'mnemo.log');
    const log = createLogger({ file, level: 'info', clock, maxBytes: 200, keep: 2 });
    for (let i = 0; i < 30; i++) log.info(`line ${i}`);
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    expect(readFileSync(file).length).toBeLessThanOrEqual(200);
    expect(lines(file).at(-1)?.msg).toBe('line 29');
  });

  it('never throws when the file cannot be written and says so once on stderr', () => {
    const dir = tempDir();
    // A directory where the file should be: fails even for root.
    mkdirSync(join(dir, 'mnemo.log'));
    const stderr = collector();
    const log = createLogger({ file: join(dir, 'mnemo.log'), level: 'info', clock, stderr });
    expect(() => {
      log.info('a');
      log.info('b');
    }).not.toThrow();
    expect(stderr.text().match(/logging to .* stopped/g)).toHaveLength(1);
  });

  it('redacts secrets from the message and every string field before writing', () => {
    // Assembled at run time so no key shape sits in the repository. Fake.
    const token = `ghp_${'aB3dE5gH7j'.repeat(3)}K9mN0p`;
    const dsnPassword = `Zr8${'qW2eR4tY6u'.repeat(2)}`;
    const file = join(tempDir(), 'mnemo.log');
    const stderr = collector();
    const log = createLogger({ file, level: 'debug', clock, stderr, stderrLevel: 'debug' });
    const error = new Error(`insert failed for GITHUB_TOKEN=${token}`);
    log.error(`store failed with ${token}`, {
      url: `postgres://app:${dsnPassword}@db:5432/app`,
      nested: { list: [`Bearer ${token}`], [`key ${token}`]: 1 },
      error,
      count: 3,
    });
    const written = readFileSync(file, 'utf8') + stderr.text();
    expect(written).not.toContain(token);
    expect(written).not.toContain(dsnPassword);
    expect(written).toContain('[REDACTED:github_token]');
    expect(lines(file)[0]).toMatchObject({ count: 3, level: 'error' });
  });
});
