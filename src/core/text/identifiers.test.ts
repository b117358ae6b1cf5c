import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  extractCodeTerms,
  MAX_CODE_TERMS,
  MAX_QUERY_TERMS,
  MAX_SCAN_CHARS,
  MAX_TOKEN_LENGTH,
  queryTerms,
  splitIdentifier,
} from './identifiers.js';

// Code units of every kind (lone surrogates included) mixed with the characters that shape tokens.
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'aZé9_-./\\:@#$ \n'.split('')),
    fc.nat(0xffff).map((n) => String.fromCharCode(n)),
  ),
  maxLength: 200,
});

describe('extractCodeTerms', () => {
  it('splits a file path into the path, its segments, stem, extension and words', () => {
    expect(extractCodeTerms('see src/store/sqlite-store.ts.')).toEqual([
      'src/store/sqlite-store.ts',
      'src',
      'store',
      'sqlite-store.ts',
      'sqlite-store',
      'ts',
      'sqlite',
    ]);
  });

  it('splits camelCase and PascalCase, keeping acronyms and digits together', () => {
    expect(extractCodeTerms('getUserById')).toEqual(['getuserbyid', 'get', 'user', 'by', 'id']);
    expect(extractCodeTerms('XMLHttpRequest2')).toEqual([
      'xmlhttprequest2',
      'xml',
      'http',
      'request',
    ]);
    expect(extractCodeTerms('sha256')).toEqual(['sha256', 'sha', '256']);
  });

  it('splits snake_case, kebab-case and dotted names, keeping their compounds', () => {
    expect(extractCodeTerms('process.env.NODE_ENV')).toEqual([
      'process.env.node_env',
      'process.env',
      'node_env',
      'process',
      'env',
      'node',
    ]);
    expect(extractCodeTerms('--max-old-space-size')).toEqual([
      'max-old-space-size',
      'max',
      'old',
      'space',
      'size',
    ]);
  });

  it('splits scoped packages, namespaces and Windows paths', () => {
    expect(extractCodeTerms('@energetic-ai/core')).toEqual([
      '@energetic-ai/core',
      'energetic-ai',
      'energetic',
      'ai',
      'core',
    ]);
    expect(extractCodeTerms('std::vector')).toEqual(['std::vector', 'std', 'vector']);
    expect(extractCodeTerms('C:\\repo\\main.rs')).toEqual([
      'c:\\repo\\main.rs',
      'repo',
      'main.rs',
      'main',
      'rs',
    ]);
  });

  it('drops the ./ of a relative path and the full stop after a name', () => {
    expect(extractCodeTerms('run ./scripts/ci.sh.')[0]).toBe('scripts/ci.sh');
  });

  it('ignores plain prose, which the full-text leg already covers', () => {
    expect(extractCodeTerms('The store was slow after the upgrade, so we reverted it.')).toEqual(
      [],
    );
  });

  it('lists each term once, in order of first appearance', () => {
    expect(extractCodeTerms('userId then user_id then userId')).toEqual([
      'userid',
      'user',
      'id',
      'user_id',
    ]);
  });

  it('folds full-width characters to their ASCII forms', () => {
    expect(extractCodeTerms('ｓｒｃ/ｍａｉｎ.ts')[0]).toBe('src/main.ts');
  });

  it('skips tokens too long to be names', () => {
    const blob = 'aB'.repeat(MAX_TOKEN_LENGTH);
    expect(extractCodeTerms(`${blob} fooBar`)).toEqual(['foobar', 'foo', 'bar']);
  });

  it('caps the scanned text and the number of terms on a 100 KB input', () => {
    const filler = Array.from({ length: 20_000 }, (_, i) => `v${i}`).join(' ');
    const text = `${filler} lateIdentifier`.padEnd(100_000, ' x');
    expect(text.length).toBeGreaterThanOrEqual(100_000);
    const terms = extractCodeTerms(text);
    expect(terms).toHaveLength(MAX_CODE_TERMS);
    expect(terms).not.toContain('lateidentifier');
    const late = extractCodeTerms(`${' '.repeat(MAX_SCAN_CHARS)} lateIdentifier`);
    expect(late).toEqual([]);
  });

  it('never throws and returns distinct, non-empty, lowercase terms for any string', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const terms = extractCodeTerms(text);
        expect(terms.length).toBeLessThanOrEqual(MAX_CODE_TERMS);
        expect(new Set(terms).size).toBe(terms.length);
        for (const term of terms) {
          expect(term.length).toBeGreaterThan(0);
          expect(term).toBe(term.toLowerCase());
        }
      }),
    );
  });
});

describe('queryTerms', () => {
  it('puts code terms first, then content words without stopwords', () => {
    expect(queryTerms('why does the sqlite store throw SQLITE_BUSY?')).toEqual([
      'sqlite_busy',
      'sqlite',
      'busy',
      'store',
      'throw',
    ]);
  });

  it('lets a prose query reach the parts of an identifier', () => {
    const indexed = new Set(extractCodeTerms('class SqliteMemoryStore'));
    const matched = queryTerms('sqlite memory store').filter((t) => indexed.has(t));
    expect(matched).toEqual(['sqlite', 'memory', 'store']);
  });

  it('returns at most MAX_QUERY_TERMS terms, however long the prompt', () => {
    const prompt = Array.from({ length: 500 }, (_, i) => `handler${i}Name`).join(' ');
    expect(queryTerms(prompt)).toHaveLength(MAX_QUERY_TERMS);
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(queryTerms(text).length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      }),
    );
  });
});

describe('splitIdentifier', () => {
  it('returns the words of an identifier in order, lowercased', () => {
    expect(splitIdentifier('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    expect(splitIdentifier('NODE_ENV')).toEqual(['node', 'env']);
    expect(splitIdentifier('parseHTTPResponse2')).toEqual(['parse', 'http', 'response', '2']);
    expect(splitIdentifier('')).toEqual([]);
  });
});
