import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { openTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { spoolPaths } from './spool-paths.js';
import { foldTallies, tallySkip } from './spool-tally.js';

const tempDir = useTempDirs();
const opened: TestApp[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function setup() {
  const app = await openTestApp(tempDir());
  opened.push(app);
  const counters = async () => {
    const out: Record<string, number> = {};
    for (const row of await app.store.readCounters('2000-01-01')) out[row.name] = row.value;
    return out;
  };
  return { app, dir: spoolPaths(app.config.home).dir, counters };
}

describe('spool tallies', () => {
  it('counts skips in a private tally file and folds each count into the store exactly once', async () => {
    const t = await setup();
    for (let i = 0; i < 3; i++)
      expect(tallySkip(t.app.config, 'read_not_captured', t.app.log)).toBe(true);
    expect(tallySkip(t.app.config, 'own_tool', t.app.log)).toBe(true);
    const file = join(t.dir, 'capture.skipped.read_not_captured.tally');
    expect(readFileSync(file, 'utf8')).toBe('...');
    expect(await foldTallies(t.app)).toBe(4);
    expect(await foldTallies(t.app)).toBe(0);
    expect(readdirSync(t.dir)).toEqual([]);
    expect(await t.counters()).toMatchObject({
      'capture.skipped.read_not_captured': 3,
      'capture.skipped.own_tool': 1,
    });
  });

  it('folds a tally claimed by a fold that crashed, and counts nothing for a name outside the list', async () => {
    const t = await setup();
    tallySkip(t.app.config, 'read_not_captured', t.app.log);
    writeFileSync(
      join(t.dir, 'capture.skipped.read_not_captured~01J8Z3Q4R5S6T7V8W9X0Y1Z2A3.tally'),
      '..',
    );
    writeFileSync(join(t.dir, 'capture.skipped.made_up.tally'), '.....');
    expect(await foldTallies(t.app)).toBe(3);
    const counters = await t.counters();
    expect(counters['capture.skipped.read_not_captured']).toBe(3);
    expect(counters).not.toHaveProperty('capture.skipped.made_up');
    expect(readdirSync(t.dir)).toEqual([]);
  });
});
