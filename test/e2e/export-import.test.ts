import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { exportRows, idFrom, MNEMO_BIN, useTestHomes } from '../helpers/mnemo-bin.js';

const newHome = useTestHomes();

describe('mnemo export | mnemo import', () => {
  it('round-trips through a real pipe into a fresh home, byte for byte', async () => {
    const source = newHome();
    const other = join(source.project, 'other');
    mkdirSync(other);
    await source.run(['remember', 'Use pnpm, not npm', '--kind', 'decision', '-t', 'build']);
    await source.run(['remember', 'Use pnpm, not npm']); // a dedupe: access count and heat change
    await source.run(['remember', '-'], { input: 'multi\nline ✓ “quoted” \\ back\tslash' });
    await source.run(['remember', 'global preference', '--global', '--kind', 'preference']);
    await source.run(['remember', 'in another project', '--project', other, '-t', 'x', '-t', 'y']);
    const gone = idFrom((await source.run(['remember', 'to be forgotten'])).stdout);
    await source.run(['forget', gone]);
    const original = await exportRows(source);
    expect(original.trimEnd().split('\n')).toHaveLength(4);

    const target = newHome();
    const pipeline = `"${process.execPath}" "${MNEMO_BIN}" export | MNEMO_HOME="${target.home}" "${process.execPath}" "${MNEMO_BIN}" import -`;
    const report = execFileSync('sh', ['-c', pipeline], {
      env: source.env,
      cwd: source.project,
      encoding: 'utf8',
    });
    expect(report).toMatch(/Imported 4, skipped 0 from stdin\.\n$/);

    expect(await exportRows(target)).toBe(original);
  });

  it('round-trips an empty store', async () => {
    const source = newHome();
    const empty = await exportRows(source);
    expect(empty).toBe('');
    const target = newHome();
    const result = await target.run(['import', '-'], { input: empty });
    expect(result).toMatchObject({ code: 0, stdout: 'Imported 0, skipped 0 from stdin.\n' });
    expect(await exportRows(target)).toBe('');
  });
});
