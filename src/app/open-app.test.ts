import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { isMemoryError } from '../core/errors.js';
import { isMemoryId } from '../core/memory.js';
import { createIdSource, openApp } from './open-app.js';

const tempDir = useTempDirs();
const fixedClock = { now: () => new Date('2024-05-01T12:00:00.000Z') };

async function openError(home: string): Promise<unknown> {
  try {
    const app = await openApp({ env: { MNEMO_HOME: home } });
    await app.close();
  } catch (error) {
    return error;
  }
  throw new Error('expected openApp to fail');
}

describe('openApp', () => {
  it('creates $MNEMO_HOME and the database inside it, and works end to end', async () => {
    const home = join(tempDir(), 'nested', 'home');
    const app = await openApp({ env: { MNEMO_HOME: home }, clock: fixedClock });
    try {
      expect(app.config.databasePath).toBe(join(home, 'mnemo.db'));
      expect(statSync(home).mode & 0o777).toBe(0o700);
      const { memory } = await app.store.remember({ content: 'wired', projectKey: '/p' });
      expect(memory.createdAt).toBe('2024-05-01T12:00:00.000Z');
      expect(memory.id.slice(0, 10)).toBe(createIdSource(fixedClock).next().slice(0, 10));
    } finally {
      await app.close();
    }
    expect(existsSync(join(home, 'mnemo.db'))).toBe(true);
  });

  it('honours the configured database file name', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ databaseFile: 'other.db' }));
    const app = await openApp({ env: { MNEMO_HOME: home } });
    await app.close();
    expect(existsSync(join(home, 'other.db'))).toBe(true);
    expect(existsSync(join(home, 'mnemo.db'))).toBe(false);
  });

  it('closes idempotently', async () => {
    const app = await openApp({ env: { MNEMO_HOME: tempDir() } });
    await app.close();
    await expect(app.close()).resolves.toBeUndefined();
  });

  it('logs to $MNEMO_HOME/logs/mnemo.log at the configured level', async () => {
    const home = tempDir();
    const app = await openApp({ env: { MNEMO_HOME: home, MNEMO_LOG_LEVEL: 'debug' } });
    await app.close();
    expect(readFileSync(join(home, 'logs', 'mnemo.log'), 'utf8')).toContain('"msg":"store opened"');
  });

  it('raises STORE_UNAVAILABLE with a next step when the database path cannot be opened', async () => {
    const home = tempDir();
    mkdirSync(join(home, 'mnemo.db'));
    const error = await openError(home);
    expect(isMemoryError(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/point MNEMO_HOME at another directory/);
  });

  it('raises STORE_UNAVAILABLE when the home cannot be created', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const error = await openError(join(file, 'home'));
    expect(isMemoryError(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/Cannot create the mnemo home .*writable directory/);
  });

  it('passes the store’s own STORE_CORRUPT through for a file that is not a database', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'mnemo.db'), 'not a database '.repeat(100));
    expect(isMemoryError(await openError(home), 'STORE_CORRUPT')).toBe(true);
  });
});

describe('createIdSource', () => {
  it('issues strictly increasing ULIDs even when the clock stands still', () => {
    const ids = createIdSource(fixedClock);
    const issued = Array.from({ length: 50 }, () => ids.next());
    expect(issued.every(isMemoryId)).toBe(true);
    expect([...issued].sort()).toEqual(issued);
    expect(new Set(issued).size).toBe(50);
  });
});
