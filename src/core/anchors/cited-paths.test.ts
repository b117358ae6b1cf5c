import { describe, expect, it } from 'vitest';

import { citedFileNames, citedPaths, MAX_CITED_NAMES, MAX_CITED_PATHS } from './cited-paths.js';

const ROOT = '/home/dev/work/shop';

describe('citedPaths', () => {
  it.each([
    ['conversions live in src/money.ts.', ['src/money.ts']],
    ['see `tests/checkout.spec.ts` and ./lib/cart.js', ['tests/checkout.spec.ts', 'lib/cart.js']],
    [`edited ${ROOT}/src/app.tsx today`, ['src/app.tsx']],
    ['(packages/api/src/index.ts)', ['packages/api/src/index.ts']],
  ])('finds the project files %j cites', (content, expected) => {
    expect(citedPaths(content, ROOT)).toEqual(expected);
  });

  it.each([
    'docs at https://example.com/guide/intro.html',
    'outside: /etc/nginx/nginx.conf and /home/dev/work/other/src/a.ts',
    'climbing out: ../other/src/a.ts',
    'no directory: package.json, version 1.2.3, e.g. and i.e.',
    'a ratio like 3/4.5 or a date 2026/12/02',
  ])('finds no project file in %j', (content) => {
    expect(citedPaths(content, ROOT)).toEqual([]);
  });

  it('lists each path once and at most the cap', () => {
    const many = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts`).join(' ');
    expect(citedPaths(`src/a.ts src/a.ts ${many}`, ROOT)).toHaveLength(MAX_CITED_PATHS);
    expect(citedPaths('src/a.ts and src/a.ts', ROOT)).toEqual(['src/a.ts']);
  });
});

describe('citedFileNames', () => {
  it('finds bare file names with an extension, never versions, URLs or paths', () => {
    expect(
      citedFileNames(
        'Bump package.json and tsconfig.json; v1.2.3, see https://x.io/a.js or src/b.ts',
      ),
    ).toEqual(['package.json', 'tsconfig.json']);
    expect(citedFileNames('a.ts b.ts c.ts d.ts e.ts f.ts')).toHaveLength(MAX_CITED_NAMES);
  });
});
